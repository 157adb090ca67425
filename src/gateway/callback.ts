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

/** A callback's (or a shopper return's) fields in our names, each as sent (untrimmed; a repeated one as its first). */
export interface CallbackFields {
  status?: string
  orderId?: string
  clientOrderId?: string
  /** the vendor's 2026 spelling of client_orderid (same value) */
  merchantOrder?: string
  type?: string
  control?: string
  amount?: string
  currency?: string
  errorCode?: string
  errorMessage?: string
  /** the transaction's serial number, when the callback carries one */
  serialNumber?: string
  /** the processor's transaction id (may be the same for every transaction of an order) */
  processorTxId?: string
}

/** The wire name of each callback field (messages name what is missing in the gateway's spelling). */
export const CALLBACK_WIRE_NAMES = {
  status: "status",
  orderId: "orderid",
  clientOrderId: "client_orderid",
  merchantOrder: "merchant_order",
  type: "type",
  control: "control",
  amount: "amount",
  currency: "currency",
  errorCode: "error_code",
  errorMessage: "error_message",
  serialNumber: "serial-number",
  processorTxId: "processor-tx-id",
} as const satisfies Record<keyof CallbackFields, string>

/** Reads a callback's params (a flat map, or a query with repeated keys) into CallbackFields. */
export function readCallbackFields(params: Record<string, unknown>): CallbackFields {
  const out: CallbackFields = {}
  for (const [ours, wire] of Object.entries(CALLBACK_WIRE_NAMES) as Array<[keyof CallbackFields, string]>) {
    const v = params?.[wire]
    const value = Array.isArray(v) ? v[0] : v
    if (typeof value === "string") out[ours] = value
  }
  return out
}

/** The wire names of the fields verifyCallback needs that `params` lacks (client_orderid is satisfied by merchant_order). */
export function missingCallbackFields(params: Record<string, unknown>): string[] {
  const f = readCallbackFields(params)
  const missing: string[] = (["status", "orderId", "control"] as const).filter((k) => f[k] === undefined).map((k) => CALLBACK_WIRE_NAMES[k])
  if (f.clientOrderId === undefined && f.merchantOrder === undefined) missing.push(CALLBACK_WIRE_NAMES.clientOrderId)
  return missing
}

/** CallbackFields back into the gateway's spelling (a record we write in a callback's shape); undefined is left out. */
export function callbackParams(f: { [K in keyof CallbackFields]?: string | null }): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  for (const [ours, value] of Object.entries(f) as Array<[keyof CallbackFields, string | null | undefined]>) {
    if (value !== undefined) out[CALLBACK_WIRE_NAMES[ours]] = value
  }
  return out
}
