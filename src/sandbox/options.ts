/**
 * Sandbox options and the default merchant.
 *
 * `startSandbox(options)` takes these; every flag of `medusa-payneteasy sandbox` maps onto one field here, so
 * the CLI only parses arguments. Defaults mirror a real sandbox account closely enough for local work:
 * one merchant, endpoint 1111, endpoint group 2222, transactions processing for 500 ms.
 */

export interface SandboxMerchant {
  login: string
  /** Shared secret: the last term of every control checksum and the HMAC-SHA1 OAuth key (+ "&"). */
  controlKey: string
  endpointIds: readonly string[]
  endpointGroupIds?: readonly string[]
  /** RSA public key (PEM, SPKI or PKCS#1) that verifies this merchant's RSA-SHA256 OAuth signatures. */
  publicKeyPem?: string
  /**
   * The account's balance as get-balance reports it (balance-book.ts). Default: access enabled, provider
   * "sandbox-balance", balance "default" of 10000.00 EUR with no holds and no reserve. `access: false` is an account
   * whose get-balance PaynetEasy's support has not enabled: every get-balance request for it is refused.
   */
  balance?: SandboxBalanceOptions
}

export interface SandboxBalanceOptions {
  access?: boolean
  /** The `balance-provider` get-balance by endpoint must name. */
  provider?: string
  name?: string
  currency?: string
  /** major units, decimal strings */
  amount?: string
  shortTermHolds?: string
  rollingReserve?: string
}

/** A manager login (get-balance by manager): its own OAuth key, and the merchants whose balances it sees. */
export interface SandboxManager {
  login: string
  controlKey: string
  /** Default: every merchant of the sandbox. */
  merchantLogins?: readonly string[]
}

/** The manager a sandbox started without `managers` knows; it sees every merchant. */
export const DEFAULT_SANDBOX_MANAGER: Readonly<SandboxManager> = Object.freeze({
  login: "sandbox-manager",
  controlKey: "5C0A7E11-9D3B-4E62-A1F8-2B7C4D9E6F03",
})

/** The merchant a sandbox started without `merchants` knows (frozen; spread it to derive variants). */
export const DEFAULT_SANDBOX_MERCHANT: Readonly<{
  login: string
  controlKey: string
  endpointIds: readonly string[]
  endpointGroupIds: readonly string[]
}> = Object.freeze({
  login: "sandbox-merchant",
  controlKey: "B17F59B4-A7DC-41B4-8FF9-37D986B43D20",
  endpointIds: Object.freeze(["1111"]),
  endpointGroupIds: Object.freeze(["2222"]),
})

export interface SandboxOptions {
  /** 0 = any free port. Default 4010. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Path prefix in front of every API path, like the real gateway's "/paynet". */
  prefix?: string
  /** Default: [DEFAULT_SANDBOX_MERCHANT]. */
  merchants?: SandboxMerchant[]
  /** Default: [DEFAULT_SANDBOX_MANAGER]. */
  managers?: SandboxManager[]
  /** How long a transaction stays "processing" before its final status. Default 500. */
  processingMs?: number
  /** Delay before the first attempt of every callback. Default 0. */
  callbackDelayMs?: number
  /** Approved money settles this long after approval (void is refused afterwards). Default: never (settle on command). */
  settleAfterMs?: number
  /** Receives one line per notable event. Never receives control keys, PAN or CVV. */
  logger?: (line: string) => void
  /** Callback delivery attempts until the merchant answers 200. Default 6. */
  callbackAttempts?: number
  /** Wait before retry n is callbackBackoffMs * 2^(n-1). Default 1000. */
  callbackBackoffMs?: number
  /** Accepted |now - oauth_timestamp|, seconds. Default 300. */
  oauthWindowSeconds?: number
  /**
   * Where callbacks of follow-up transactions (capture, reversal, void, chargeback) go when the order has no
   * notify_url. The real gateway sends server_callback_url only for the initial transaction (notes §7); the sandbox
   * defaults to true (fall back to server_callback_url) so a merchant that sets only that URL still hears about them.
   */
  followUpCallbacksToServerCallbackUrl?: boolean
  /**
   * Whether a STATUS awaiting 3-D Secure carries `redirect-to` beside `html`. Default true; false answers with `html`
   * only, as gateway set-ups that send just the auto-submitting ACS form do (the storefront must render it).
   */
  threeDSRedirectTo?: boolean
}

export interface ResolvedOptions {
  port: number
  host: string
  prefix: string
  merchants: SandboxMerchant[]
  managers: SandboxManager[]
  processingMs: number
  callbackDelayMs: number
  settleAfterMs: number | undefined
  logger: (line: string) => void
  callbackAttempts: number
  callbackBackoffMs: number
  oauthWindowSeconds: number
  followUpCallbacksToServerCallbackUrl: boolean
  threeDSRedirectTo: boolean
}

const nonNegative = (name: string, v: number | undefined, dflt: number): number => {
  if (v === undefined) return dflt
  if (!Number.isFinite(v) || v < 0) throw new Error(`sandbox option ${name} must be a non-negative number`)
  return v
}

export function resolveOptions(o: SandboxOptions = {}): ResolvedOptions {
  let prefix = o.prefix ?? "/paynet"
  if (prefix !== "" && !prefix.startsWith("/")) prefix = "/" + prefix
  prefix = prefix.replace(/\/+$/, "")
  const merchants = (o.merchants ?? [DEFAULT_SANDBOX_MERCHANT]).map((m) => ({
    ...m,
    endpointIds: [...m.endpointIds],
    endpointGroupIds: [...(m.endpointGroupIds ?? [])],
  }))
  if (merchants.length === 0) throw new Error("sandbox needs at least one merchant")
  for (const m of merchants) {
    if (!m.login || !m.controlKey) throw new Error("every sandbox merchant needs a login and a control key")
  }
  return {
    port: o.port ?? 4010,
    host: o.host ?? "127.0.0.1",
    prefix,
    merchants,
    managers: (o.managers ?? [DEFAULT_SANDBOX_MANAGER]).map((m) => {
      if (!m.login || !m.controlKey) throw new Error("every sandbox manager needs a login and a control key")
      return { ...m, merchantLogins: m.merchantLogins ? [...m.merchantLogins] : undefined }
    }),
    processingMs: nonNegative("processingMs", o.processingMs, 500),
    callbackDelayMs: nonNegative("callbackDelayMs", o.callbackDelayMs, 0),
    settleAfterMs: o.settleAfterMs === undefined ? undefined : nonNegative("settleAfterMs", o.settleAfterMs, 0),
    logger: o.logger ?? (() => {}),
    callbackAttempts: Math.max(1, Math.floor(nonNegative("callbackAttempts", o.callbackAttempts, 6))),
    callbackBackoffMs: nonNegative("callbackBackoffMs", o.callbackBackoffMs, 1000),
    oauthWindowSeconds: nonNegative("oauthWindowSeconds", o.oauthWindowSeconds, 300),
    followUpCallbacksToServerCallbackUrl: o.followUpCallbacksToServerCallbackUrl ?? true,
    threeDSRedirectTo: o.threeDSRedirectTo ?? true,
  }
}
