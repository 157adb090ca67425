/**
 * The ids every log line about a payment carries, in one shape, so that `grep` of any one of them tells the payment's
 * story: Medusa's payment session, payment and order ids, the gateway's order id and the client order id, and the
 * trace id while the line is written inside a traced span (to jump from a log line to its trace).
 *
 *   PaynetEasy: captured 30.00 EUR (gateway approved) [payment_session=payses_01… payment=pay_01… order=order_01…
 *   gateway_order=1000001 client_order=payses_01… trace=4bf92f35…]
 *
 * Why a suffix in the message and not structured fields: Medusa's logger (winston, JSON in production) takes a message
 * string; the same bracket reads in the development console and greps the same in the JSON. Ids only: never an amount
 * field of the request, a card, an e-mail or a secret (the message itself says the amount where it is a movement).
 */
import { context, isSpanContextValid, trace } from "@medusajs/framework/opentelemetry/api"

export type PaymentIds = {
  paymentSessionId?: string | null
  paymentId?: string | null
  orderId?: string | null
  gatewayOrderId?: string | null
  clientOrderId?: string | null
  /** A payout's id (a payout has no session, payment or order). */
  payoutId?: string | null
}

const KEYS: Array<[keyof PaymentIds, string]> = [
  ["paymentSessionId", "payment_session"],
  ["paymentId", "payment"],
  ["payoutId", "payout"],
  ["orderId", "order"],
  ["gatewayOrderId", "gateway_order"],
  ["clientOrderId", "client_order"],
]

/** ` [payment_session=… payment=… order=… gateway_order=… client_order=… trace=…]`: the ids known, always in this order. */
export function paymentIdsText(ids: PaymentIds): string {
  const parts: string[] = []
  for (const [key, label] of KEYS) {
    const v = ids[key]
    if (v) parts.push(`${label}=${v}`)
  }
  const sc = trace.getSpanContext(context.active())
  if (sc && isSpanContextValid(sc)) parts.push(`trace=${sc.traceId}`)
  return parts.length ? ` [${parts.join(" ")}]` : ""
}

type LineLogger = { info(message: string): void; warn(message: string): void; error(message: string): void }

/** A logger whose lines end with the payment's ids (paymentIdsText). */
export function paymentLogger(logger: LineLogger, ids: PaymentIds): LineLogger {
  return {
    info: (m) => logger.info(`${m}${paymentIdsText(ids)}`),
    warn: (m) => logger.warn(`${m}${paymentIdsText(ids)}`),
    error: (m) => logger.error(`${m}${paymentIdsText(ids)}`),
  }
}
