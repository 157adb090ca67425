/**
 * The typed builder for update-recurring-payment (v4, RSA-SHA256) as this plugin uses it: ending a schedule. The
 * gateway documents no cancel or stop call; its update page says "upon reaching finish date, Recurring payment will go
 * into stop status" (doc.payneteasy.com/integration/API_commands/api_v4_update-recurring-payment.html), so a schedule
 * is stopped by moving its finish date to today. The wire names live here and in the sandbox, nowhere else.
 *
 * The page does not show the date's format; create-recurring-payment's `start-date` is not shown either. We send an
 * ISO calendar date in UTC (YYYY-MM-DD), our assumption: a gateway that reads it otherwise refuses the request with a
 * validation error, which the caller reports as a refusal (the schedule is then stopped in the merchant portal).
 * No Medusa imports.
 */
import type { RequestFields } from "./request"

export interface StopRecurringPayment {
  /** This request's own merchant order id: one per stop intent, so a lost reply is settled by STATUS on it. */
  clientOrderId: string
  /** The gateway's id of the schedule (create-recurring-payment's `recurring-payment-id`). */
  recurringPaymentId: string
  /** The day the schedule ends: today for "stop now". */
  finishDate: Date
}

/** A date as `finish-date` carries it: YYYY-MM-DD, UTC. */
export function finishDateField(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError("finish date is not a valid date")
  return d.toISOString().slice(0, 10)
}

export function stopRecurringPaymentFields(r: StopRecurringPayment): RequestFields {
  return {
    "client-orderid": r.clientOrderId,
    "recurring-payment-id": r.recurringPaymentId,
    "finish-date": finishDateField(r.finishDate),
  }
}
