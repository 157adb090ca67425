/**
 * The sandbox's own `control` checksum (notes §6): SHA-1 over the operation's terms from the shared table,
 * without separators, ending with the merchant control key; 40 lowercase hex characters. Values are trimmed
 * first, as the gateway does. Callbacks and final redirects are signed sha1(status + orderid + client_orderid + key).
 */
import { createHash, timingSafeEqual } from "node:crypto"
import type { ControlTerm } from "../gateway/operations"
import { toMinor } from "./money"

export const sha1Hex = (s: string): string => createHash("sha1").update(s, "utf8").digest("hex")

export interface ControlContext {
  /** The endpoint id or endpoint group id exactly as it appears in the URL. */
  endpointId: string
  login: string
  controlKey: string
}

export type ControlResult = { ok: true; expected: string } | { ok: false; message: string; field?: string }

/** The expected control for a request, or why it cannot be computed (an amount without a valid currency). */
export function expectedControl(
  terms: readonly ControlTerm[],
  fields: Record<string, string>,
  ctx: ControlContext,
): ControlResult {
  let s = ""
  for (const t of terms) {
    if (t.kind === "endpoint") s += ctx.endpointId
    else if (t.kind === "login") s += ctx.login
    else if (t.kind === "field") s += (fields[t.name] ?? "").trim()
    else {
      const amount = (fields.amount ?? "").trim()
      if (amount === "") continue
      const minor = toMinor(amount, (fields.currency ?? "").trim())
      if (!minor.ok) return { ok: false, message: minor.message, field: "amount" }
      s += minor.minor.toString()
    }
  }
  return { ok: true, expected: sha1Hex(s + ctx.controlKey) }
}

/** Constant-time comparison of two hex strings (lengths compared first; length is not secret). */
export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

export const callbackControl = (status: string, orderid: string, clientOrderId: string, controlKey: string): string =>
  sha1Hex(status + orderid + clientOrderId + controlKey)
