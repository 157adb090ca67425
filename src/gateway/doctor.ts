/**
 * "Are my credentials right?" — the connection check shared by `medusa-payneteasy doctor` (src/cli) and the admin's
 * `POST /admin/payneteasy/doctor` (src/api). Framework-free, so both can import it without pointing up.
 *
 * How it asks: one STATUS for a made-up client_orderid (no money moves, nothing is created). A gateway checks the
 * endpoint, the login and the control checksum before it looks the order up, so:
 * - "unknown / not found order" (or any status reply)  → the credentials work;
 * - 401/403, or a refusal naming control / login / endpoint / signature → the credentials are wrong (we say which);
 * - no connection → the gateway cannot be reached from here (URL, firewall);
 * - a reply that is not a gateway reply → the base URL (with its path prefix) is probably wrong;
 * - anything else → we cannot tell, and we quote the gateway's own (scrubbed) words.
 * The verdict is said in words a store owner can act on. Nothing returned contains the control key or private key.
 */
import { createPrivateKey, randomBytes } from "node:crypto"
import { PaynetEasyClient } from "./client"
import type { GatewayConfig } from "./config"
import {
  GatewayAuthError,
  GatewayConfigError,
  GatewayError,
  GatewayProtocolError,
  GatewayServerError,
  GatewayTransportError,
  GatewayValidationError,
} from "./errors"
import { scrub } from "./scrub"

export type DoctorVerdict = "ok" | "wrong_credentials" | "unreachable" | "not_a_gateway" | "misconfigured" | "inconclusive"

export interface DoctorCheck {
  ok: boolean
  verdict: DoctorVerdict
  /** One or two sentences for a person. */
  message: string
  /** The gateway's own words (scrubbed), when it gave any. */
  gateway_message?: string
  /** Which credential the gateway named, when it named one. */
  suspect?: "control_key" | "login" | "endpoint" | "signature"
  duration_ms: number
}

/** What may be shown about a configuration: never the control key or the private key. */
export interface DoctorConfigView {
  base_url: string
  endpoint: { kind: "endpoint" | "group"; id: string } | null
  login_masked: string
  rsa_key_loaded: boolean
  rsa_key_bits: number | null
}

/** "sandbox-merchant" → "sa************nt"; short logins are fully masked. */
export function maskLogin(login: string): string {
  const l = login.trim()
  if (l.length <= 4) return "*".repeat(Math.max(l.length, 1))
  return `${l.slice(0, 2)}${"*".repeat(Math.min(l.length - 4, 12))}${l.slice(-2)}`
}

export function describeConfig(config: Pick<GatewayConfig, "baseUrl" | "endpointId" | "endpointGroupId" | "login" | "privateKeyPem">): DoctorConfigView {
  let bits: number | null = null
  if (config.privateKeyPem) {
    try {
      bits = createPrivateKey({ key: config.privateKeyPem, format: "pem" }).asymmetricKeyDetails?.modulusLength ?? null
    } catch {
      bits = null
    }
  }
  const endpoint = config.endpointGroupId
    ? { kind: "group" as const, id: String(config.endpointGroupId) }
    : config.endpointId
      ? { kind: "endpoint" as const, id: String(config.endpointId) }
      : null
  return {
    base_url: config.baseUrl,
    endpoint,
    login_masked: maskLogin(config.login ?? ""),
    rsa_key_loaded: !!config.privateKeyPem,
    rsa_key_bits: bits,
  }
}

const SUSPECTS: Array<[RegExp, NonNullable<DoctorCheck["suspect"]>, string]> = [
  [/control|checksum|hash|sign(ature)?\b/i, "control_key", "control key"],
  [/login|merchant|user(name)?\b/i, "login", "login"],
  [/end-?point|group/i, "endpoint", "endpoint id"],
  [/oauth|signature/i, "signature", "signature"],
]
const NOT_FOUND = /not\s*found|unknown\s+(client_?orderid|order|merchant-order|transaction)|no\s+such|does\s+not\s+exist|client_?orderid/i

/** Runs the check with a client built from `config` (closed afterwards). */
export async function checkGatewayConnection(config: GatewayConfig, opts: { timeoutMs?: number } = {}): Promise<DoctorCheck> {
  const started = Date.now()
  const took = () => Date.now() - started
  const secrets = [config.controlKey, ...(config.privateKeyPem ? [config.privateKeyPem] : [])].filter(Boolean)
  const t = opts.timeoutMs ?? 10_000
  let client: PaynetEasyClient
  try {
    client = new PaynetEasyClient({ ...config, timeouts: { connectMs: t, headersMs: t, bodyMs: t }, readRetries: 0 } as GatewayConfig)
  } catch (e) {
    const why = e instanceof GatewayConfigError ? e.message : String((e as Error)?.message ?? e)
    return { ok: false, verdict: "misconfigured", message: scrub(`The configuration is incomplete or invalid: ${why}`, secrets), duration_ms: took() }
  }
  const probe = `doctor-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`
  try {
    await client.request("STATUS", { client_orderid: probe })
    return {
      ok: true,
      verdict: "ok",
      message: "The gateway accepted the login, endpoint and control key (it answered a STATUS request).",
      duration_ms: took(),
    }
  } catch (e) {
    return { ...classify(e, config.baseUrl, secrets), duration_ms: took() }
  } finally {
    await client.close()
  }
}

function classify(e: unknown, baseUrl: string, secrets: string[]): Omit<DoctorCheck, "duration_ms"> {
  const said = e instanceof GatewayError ? (e.gatewayMessage ?? "").trim() : ""
  const gateway_message = said ? scrub(said, secrets) : undefined
  const quoted = gateway_message ? ` The gateway said: "${gateway_message}".` : ""
  if (e instanceof GatewayTransportError) {
    return {
      ok: false,
      verdict: "unreachable",
      message: scrub(`Could not reach the gateway at ${baseUrl}: ${e.message}. Check baseUrl and that this server may connect to it.`, secrets),
    }
  }
  if (e instanceof GatewayAuthError) {
    const suspect = suspectOf(said)
    return {
      ok: false,
      verdict: "wrong_credentials",
      message: `The gateway refused the credentials (HTTP ${e.httpStatus ?? "403"})${suspect ? `: check the ${suspect.label}` : ": check the login, endpoint id and control key"}.${quoted}`,
      ...(suspect ? { suspect: suspect.key } : {}),
      ...(gateway_message ? { gateway_message } : {}),
    }
  }
  if (e instanceof GatewayValidationError || (e instanceof GatewayServerError && (e.httpStatus ?? 0) < 500)) {
    const suspect = suspectOf(said)
    if (suspect) {
      return {
        ok: false,
        verdict: "wrong_credentials",
        suspect: suspect.key,
        message: `The credentials do not work: the gateway refused the ${suspect.label}.${quoted}`,
        ...(gateway_message ? { gateway_message } : {}),
      }
    }
    if (NOT_FOUND.test(said)) {
      return {
        ok: true,
        verdict: "ok",
        message: `The credentials work: the gateway checked the login, endpoint and control key and then looked for a made-up test order (it answered that the order is unknown, as expected).`,
        ...(gateway_message ? { gateway_message } : {}),
      }
    }
  }
  if (e instanceof GatewayProtocolError) {
    return {
      ok: false,
      verdict: "not_a_gateway",
      message: `Something answered at ${baseUrl}, but not like a PaynetEasy gateway: check baseUrl, including its path prefix (e.g. https://sandbox.payneteasy.com/paynet).`,
    }
  }
  const what = e instanceof GatewayError ? e.message : String((e as Error)?.message ?? e)
  return {
    ok: false,
    verdict: "inconclusive",
    message: scrub(`The gateway answered in a way that does not say whether the credentials work: ${what}.`, secrets),
    ...(gateway_message ? { gateway_message } : {}),
  }
}

function suspectOf(text: string): { key: NonNullable<DoctorCheck["suspect"]>; label: string } | undefined {
  if (!text || NOT_FOUND.test(text) && !/control|login|end-?point|signature/i.test(text)) return undefined
  for (const [re, key, label] of SUSPECTS) if (re.test(text)) return { key, label }
  return undefined
}
