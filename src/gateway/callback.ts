/**
 * Checking the `control` of the gateway's incoming requests: the server callback (GET to server_callback_url) and
 * the payer's final redirect (POST to redirect_url).
 *
 * control = lowercase hex sha1(status + orderid + client_orderid + merchant control key), verified against two real
 * sandbox dumps (gateway notes §6.3, §7, §8). `merchant_order` carries the same value as `client_orderid` and is
 * used when the latter is absent (the vendor's 2026 examples hash merchant_order). The checksum does not cover
 * amount or type: callers still dedupe and confirm with STATUS before acting on money.
 */
import { timingSafeEqual } from "node:crypto"
import { sha1Hex } from "./control"

/** sha1(status + orderid + clientOrderid + controlKey), values trimmed, key byte-exact, lowercase hex. */
export function callbackControl(status: string, orderid: string, clientOrderid: string, controlKey: string): string {
  return sha1Hex(`${(status ?? "").trim()}${(orderid ?? "").trim()}${(clientOrderid ?? "").trim()}${controlKey}`)
}

/** A single parameter value; a repeated parameter with differing values counts as absent. */
function single(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0 || value.some((v) => v !== value[0])) return undefined
    return value[0]
  }
  return typeof value === "string" ? value : undefined
}

/**
 * True when `params.control` matches the callback formula. Missing status, orderid, client order id or control
 * → false. Compared in constant time on equal-length buffers; the received control is lowercased first.
 */
export function verifyCallback(params: Record<string, string | string[] | undefined>, controlKey: string): boolean {
  if (!params || typeof controlKey !== "string" || controlKey.length === 0) return false
  const status = single(params.status)?.trim()
  const orderid = single(params.orderid)?.trim()
  const clientOrderid = (single(params.client_orderid) ?? single(params.merchant_order))?.trim()
  const received = single(params.control)?.trim().toLowerCase()
  if (!status || !orderid || !clientOrderid || !received) return false
  const expected = Buffer.from(callbackControl(status, orderid, clientOrderid, controlKey), "utf8")
  const actual = Buffer.from(received, "utf8")
  if (actual.length !== expected.length) return false
  return timingSafeEqual(actual, expected)
}
