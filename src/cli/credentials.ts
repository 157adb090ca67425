/**
 * The gateway credentials that `request` and `doctor` take, each from a flag or its PAYNETEASY_* variable, checked
 * once here: both endpoint kinds at once or a missing credential is a usage error naming every missing one, and a
 * private key file is read (and parsed by the client's own loader) only when asked for. Secrets stay in the values
 * returned; callers scrub with `secretsOf`.
 */
import { readFileSync } from "node:fs"
import { loadRsaPrivateKey, type GatewayConfig } from "../gateway"
import { flagOrEnv, intFlag } from "./args"
import { CliUsageError } from "./io"

/** The parse options of the credential flags, spread into a command's own options. */
export const CREDENTIAL_OPTIONS = {
  "base-url": { type: "string" },
  "endpoint-id": { type: "string" },
  "endpoint-group-id": { type: "string" },
  login: { type: "string" },
  "control-key": { type: "string" },
  "private-key": { type: "string" },
  timeout: { type: "string" },
} as const

export type CredentialFlags = { [K in keyof typeof CREDENTIAL_OPTIONS]?: string }

export interface Credentials {
  config: Omit<GatewayConfig, "privateKeyPem">
  /** Path of the RSA private key (flag or PAYNETEASY_PRIVATE_KEY), read only by `readPrivateKey`. */
  keyPath?: string
  timeoutMs?: number
}

export function credentialsFrom(values: CredentialFlags, env: Record<string, string | undefined>): Credentials {
  const baseUrl = flagOrEnv(values["base-url"], env, "PAYNETEASY_BASE_URL")
  const endpointGroupId = values["endpoint-group-id"] || undefined
  if (endpointGroupId && values["endpoint-id"]) {
    throw new CliUsageError("pass either --endpoint-id or --endpoint-group-id, not both")
  }
  // An explicit --endpoint-group-id wins over PAYNETEASY_ENDPOINT_ID from the environment.
  const endpointId = endpointGroupId ? undefined : flagOrEnv(values["endpoint-id"], env, "PAYNETEASY_ENDPOINT_ID")
  const login = flagOrEnv(values.login, env, "PAYNETEASY_LOGIN")
  const controlKey = flagOrEnv(values["control-key"], env, "PAYNETEASY_CONTROL_KEY")
  const keyPath = flagOrEnv(values["private-key"], env, "PAYNETEASY_PRIVATE_KEY")
  const timeoutMs = intFlag(values.timeout, "--timeout", { min: 1 })
  const missing = [
    !baseUrl && "--base-url (or PAYNETEASY_BASE_URL)",
    !endpointId && !endpointGroupId && "--endpoint-id / --endpoint-group-id (or PAYNETEASY_ENDPOINT_ID)",
    !login && "--login (or PAYNETEASY_LOGIN)",
    !controlKey && "--control-key (or PAYNETEASY_CONTROL_KEY)",
  ].filter(Boolean)
  if (missing.length) throw new CliUsageError(`missing ${missing.join(", ")}`)
  return {
    config: { baseUrl: baseUrl!, ...(endpointGroupId ? { endpointGroupId } : { endpointId }), login: login!, controlKey: controlKey! },
    keyPath,
    timeoutMs,
  }
}

/** The key file's text; a file that cannot be read is a usage error naming it. */
export function readKeyFile(path: string): string {
  try {
    return readFileSync(path, "utf8")
  } catch (e) {
    throw new CliUsageError(`cannot read the private key file ${path}: ${(e as NodeJS.ErrnoException).code ?? "error"}`)
  }
}

/** Reads and parses the PEM at `path` with the client's own loader; `why` ends the message when it is unusable. */
export function readPrivateKey(path: string, why: string): string {
  const pem = readKeyFile(path)
  try {
    loadRsaPrivateKey(pem)
  } catch (e) {
    const reason = (e as Error).message.replace(/^privateKeyPem /, "")
    throw new CliUsageError(`${path}: ${reason} (${why})`)
  }
  return pem
}

/** What must never be printed: the control key and, when loaded, the private key. */
export function secretsOf(config: GatewayConfig): string[] {
  return [config.controlKey, ...(config.privateKeyPem ? [config.privateKeyPem] : [])]
}
