/**
 * Reading a gateway callback (GET query) or a shopper return (form POST) into one flat string map, and the copy of it
 * we are allowed to store.
 *
 * Gateway facts (gateway notes §7, §8): the server callback is a GET whose query carries status, orderid,
 * client_orderid (= merchant_order), type, amount, currency, error_code, error_message, control and more; the merchant
 * may have put its own params into the URL, so query and body are merged. The return is a browser form POST with the
 * same core fields; `error_message` can be the literal "null". `control` covers only status + orderid +
 * client_orderid + key, so it authenticates those three values and nothing else.
 *
 * A malformed request (a field given twice with different values, or a missing core field) is refused before any
 * lookup: we cannot tell which value the control was computed over.
 */
import { scrub } from "../../gateway/scrub"
import { CALLBACK_WIRE_NAMES, readCallbackFields } from "../../gateway/callback"

export type CallbackParams = Record<string, string>

export type CallbackCore = {
  status: string
  orderid: string
  clientOrderId: string
  type: string
  amount?: string
  currency?: string
  errorCode?: string
  errorMessage?: string
}

export class MalformedCallbackError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "MalformedCallbackError"
  }
}

const MAX_FIELDS = 100
const MAX_VALUE = 8192

/** Merges query and body into one map of strings. Repeated keys must agree; objects (qs nesting) are refused. */
export function readParams(...sources: Array<unknown>): CallbackParams {
  const out: CallbackParams = {}
  for (const source of sources) {
    if (!source || typeof source !== "object") continue
    for (const [key, raw] of Object.entries(source as Record<string, unknown>)) {
      const values = Array.isArray(raw) ? raw : [raw]
      for (const v of values) {
        if (v === undefined || v === null) continue
        if (typeof v !== "string" && typeof v !== "number") {
          throw new MalformedCallbackError(`field "${key}" is not a plain value`)
        }
        const value = String(v)
        if (value.length > MAX_VALUE) throw new MalformedCallbackError(`field "${key}" is too long`)
        if (key in out && out[key] !== value) {
          throw new MalformedCallbackError(`field "${key}" is given more than once with different values`)
        }
        out[key] = value
      }
    }
  }
  if (Object.keys(out).length > MAX_FIELDS) throw new MalformedCallbackError("too many fields")
  return out
}

const clean = (v: string | undefined): string | undefined => {
  const t = (v ?? "").trim()
  return t === "" || t.toLowerCase() === "null" ? undefined : t
}

/** The fields every callback and return must carry; `type` defaults to "" for returns, which may omit it. */
export function coreFields(params: CallbackParams, opts: { requireType: boolean }): CallbackCore {
  const f = readCallbackFields(params)
  const core = {
    status: clean(f.status)?.toLowerCase(),
    orderId: clean(f.orderId),
    clientOrderId: clean(f.clientOrderId) ?? clean(f.merchantOrder),
    control: clean(f.control),
    type: clean(f.type)?.toLowerCase(),
  }
  const required = ["status", "orderId", "clientOrderId", "control", ...(opts.requireType ? (["type"] as const) : [])] as const
  const missing = required.filter((k) => !core[k]).map((k) => CALLBACK_WIRE_NAMES[k])
  if (missing.length) {
    throw new MalformedCallbackError(`missing ${missing.join(", ")}`)
  }
  if (f.clientOrderId && f.merchantOrder && clean(f.clientOrderId) !== clean(f.merchantOrder)) {
    throw new MalformedCallbackError("client_orderid and merchant_order differ")
  }
  return {
    status: core.status!,
    orderid: core.orderId!,
    clientOrderId: core.clientOrderId!,
    type: core.type ?? "",
    amount: clean(f.amount),
    currency: clean(f.currency)?.toUpperCase(),
    errorCode: clean(f.errorCode),
    errorMessage: clean(f.errorMessage),
  }
}

/** What we store: no control checksum, no card number or CVV (scrub masks PAN-like runs and sensitive keys). */
export function storableParams(params: CallbackParams): Record<string, string> {
  const { control: _control, ...rest } = params
  return scrub(rest)
}

/**
 * The part of a callback's identity beyond (source, orderid, client_orderid, type, status): its amount and the
 * gateway's transaction id when the callback carries one (`serial-number`, else `processor-tx-id`).
 *
 * Why: later events repeat type and status on the same order — a second partial return, a second chargeback — and
 * must not be taken for a redelivery of the first. A redelivery is byte-identical, so it still gets the same key.
 * Limit (gateway fact): the documented callback carries no per-transaction serial, and `processor-tx-id` may be the
 * same for every transaction of an order (the sandbox's is `PNTEST-<orderid>`), so two later events of the same
 * type, status AND amount on one order stay indistinguishable from a redelivery and are recorded once.
 * Never null (a NULL in a unique index never conflicts in Postgres, which would let duplicates through).
 */
export function eventKey(core: Pick<CallbackCore, "amount">, params: CallbackParams): string {
  const f = readCallbackFields(params)
  const txId = clean(f.serialNumber) ?? clean(f.processorTxId) ?? ""
  return `${core.amount ?? ""}|${txId}`
}
