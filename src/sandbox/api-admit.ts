/**
 * The checks every API request passes before its handler runs, in this order:
 * 1. the endpoint (or group) id names a registered endpoint — else a validation error (403 for OAuth operations,
 *    whose consumer cannot be known);
 * 2. OAuth operations: the signature, timestamp window and nonce (403 on failure);
 * 3. every required field of the table is present and non-empty (after trimming), and exactly one field of each
 *    `oneOf` group;
 * 4. `login`, when sent, is the endpoint's merchant login;
 * 5. control operations: `control` equals sha1 of the table's terms (lowercase hex);
 * 6. an `amount` is a decimal string valid for its `currency`.
 */
import type { SignatureMethod } from "../gateway/operations"
import { Refusal, type ApiRequest } from "./api-context"
import { expectedControl, sameHex } from "./control-sum"
import { toMinor } from "./money"
import { verifyOAuth, type NonceBook } from "./oauth-verify"
import type { ResolvedOptions, SandboxMerchant } from "./options"

export type Admission = { ok: true; merchant: SandboxMerchant } | { ok: false; forbidden: string }

/** v4 operations accept only RSA-SHA256 (PCI DSS, seed); v2 OAuth operations accept both, as the docs disagree (notes §10). */
export function allowedMethods(req: ApiRequest): SignatureMethod[] {
  return req.op.version === "v4" ? ["RSA-SHA256"] : ["HMAC-SHA1", "RSA-SHA256"]
}

export function admit(
  req: ApiRequest,
  endpoints: Map<string, SandboxMerchant>,
  opts: ResolvedOptions,
  nonces: NonceBook,
): Admission {
  const merchant = endpoints.get(req.endpointKey)
  const oauth = req.op.auth.kind === "oauth"
  if (!merchant) {
    if (oauth) return { ok: false, forbidden: "unknown endpoint" }
    throw new Refusal(`Unknown endpoint: ${req.endpointId}`, "endpointId")
  }
  // An OAuth request may carry everything in its Authorization header when the operation requires no field
  // (get-balance by manager without a balance-name).
  if (req.pairs.length === 0 && !(oauth && req.op.required.length === 0)) {
    if (oauth) return { ok: false, forbidden: "empty request (OAuth parameters missing)" }
    throw new Refusal("Request body is required (application/x-www-form-urlencoded)")
  }
  if (oauth) {
    const r = verifyOAuth(
      { url: req.url, authorization: req.authorization, bodyPairs: req.pairs },
      merchant, allowedMethods(req), opts.oauthWindowSeconds, nonces, Date.now(),
    )
    if (!r.ok) return { ok: false, forbidden: r.reason }
  }
  const f = req.fields
  for (const name of req.op.required) {
    if (!f[name]) throw new Refusal(`Missing required field: ${name}`, name)
  }
  for (const group of req.op.oneOf ?? []) {
    const sent = group.filter((name) => !!f[name])
    if (sent.length === 0) throw new Refusal(`One of ${group.join(", ")} is required`, group[0])
    if (sent.length > 1) throw new Refusal(`Send only one of ${group.join(", ")}`, sent[1])
  }
  if (f.login !== undefined && f.login !== merchant.login) {
    throw new Refusal("login does not match the merchant of this endpoint", "login")
  }
  if (f.amount) {
    if (!f.currency) throw new Refusal("currency is required when amount is sent", "currency")
    const m = toMinor(f.amount, f.currency)
    if (!m.ok) throw new Refusal(m.message, "amount")
  }
  if (req.op.auth.kind === "control" && req.op.control) {
    if (!f.control) throw new Refusal("Missing required field: control", "control")
    const exp = expectedControl(req.op.control, f, {
      endpointId: req.endpointId, login: merchant.login, controlKey: merchant.controlKey,
    })
    if (!exp.ok) throw new Refusal(exp.message, exp.field)
    if (!sameHex(f.control, exp.expected)) throw new Refusal("Invalid control: checksum mismatch", "control")
  }
  return { ok: true, merchant }
}
