/**
 * A recurring payment's charge, reported by callback (route → accept.ts → callback log → process-callback.ts, which
 * hands `pnerp_…` client_orderids here), or found by reconciliation when its callback never came (reconcile-charges.ts
 * passes what STATUS reported, through this same function). The report is only a trigger: STATUS for the charge's
 * client_orderid and orderid decides, under the recurring payment's lock (`payneteasy:recurring:<row id>`), and one
 * charge row per gateway order (unique) makes a redelivered callback a no-op.
 * - approved → a renewal order with its payment captured: `renew`, the renewal-order workflow's runner
 *   (core/recurring/renewal-order.ts; the caller passes it, core never imports a workflow); for a cancelled recurring payment, or an
 *   amount that is not the subscription's, nothing is created and the charge is flagged for a person (refund at the gateway);
 * - declined / error / filtered → recorded on the recurring payment, which becomes `past_due` (listed in the attention
 *   queue) until a later charge is approved, and the event `payneteasy.recurring_payment.charge_failed` emitted (a store
 *   subscribes to it to e-mail the customer).
 * A retried charge (`<row id>-r<n>`, retry-charge.ts: a make-rebill of the subscription's card) takes the same path;
 * it leaves the expected next charge date alone (the gateway's schedule did not move) and settles the retry's record.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { toMinorUnits } from "../../gateway/money"
import { nextChargeDate } from "../../gateway/schedule"
import { scrub } from "../../gateway/scrub"
import { cardsClient } from "../connection/cards-config"
import { isFinal } from "../connection"
import { isApproved } from "../../gateway/statuses"
import { recurringRowId } from "../callbacks/order-kinds"
import type { CallbackRow, RecurringChargeRow, RecurringPaymentRow } from "../../modules/payneteasy/service"
import { service } from "./records"
import type { RenewOrder } from "./renewal-order"
import { statusFields } from "../../gateway/requests"
import { errorCodeOf, errorMessageOf } from "../../gateway/replies"
import { isRetryClientOrderId, settleRetryIntent } from "./retry-intent"
import { LOCK_KEYS } from "../locks/lock-keys"
import { isCharging } from "./recurring-phase"

export const CHARGE_FAILED_EVENT = "payneteasy.recurring_payment.charge_failed"

type Result = { outcome: "processed" | "ignored" | "flagged"; detail: string }

/** What names a charge: a callback row, or the same fields from STATUS (reconciliation). */
export type ChargeReport = Pick<CallbackRow, "client_orderid" | "orderid" | "amount" | "currency">

/** The reason reconciliation writes when a charge is overdue and unknown to the gateway; a charge arriving clears it. */
export const OVERDUE_REASON_PREFIX = "no charge reported by the gateway"

/** The reason a past-due subscription shows: one sentence, the gateway's own words at the end. */
export const PAST_DUE_REASON_PREFIX = "the renewal charge was"
function pastDueReason(status: string, message: string | null): string {
  const why = message ? scrub(message).replace(/^(declined|error|filtered)\s*:\s*/i, "").trim() : ""
  return `${PAST_DUE_REASON_PREFIX} ${status} by the gateway${why ? `: ${why}` : ""}`
}

export async function processRecurringCharge(container: MedusaContainer, row: ChargeReport, renew: RenewOrder): Promise<Result> {
  const id = recurringRowId(row.client_orderid)
  const svc = service(container)
  const [rp] = (id ? await svc.listPaynetEasyRecurringPayments({ id }, { take: 1 }) : []) as RecurringPaymentRow[]
  if (!rp?.provider_id) return { outcome: "ignored", detail: "charge callback for a recurring payment we do not have" }
  const locking = container.resolve(Modules.LOCKING)
  return locking.execute(LOCK_KEYS.recurring(rp.id), async () => {
    const status = await cardsClient(container, rp.provider_id!).request("STATUS", statusFields({ clientOrderId: row.client_orderid, orderId: row.orderid }))
    if (!isFinal(status)) return { outcome: "ignored", detail: `charge ${row.orderid} is ${status.status} at the gateway, not final yet` }
    const key = { recurring_payment_row_id: rp.id, gateway_order_id: row.orderid }
    let [charge] = (await svc.listPaynetEasyRecurringCharges(key, { take: 1 })) as RecurringChargeRow[]
    if (charge && (charge.status !== "approved" || charge.renewal_order_id)) {
      return { outcome: "processed", detail: `charge ${charge.id} already recorded (${charge.status}${charge.renewal_order_id ? `, order ${charge.renewal_order_id}` : ""})` }
    }
    const amount = status.amount ?? row.amount ?? rp.amount
    const currency = (status.currency ?? row.currency ?? rp.currency_code).toUpperCase()
    const sameMoney = currency === rp.currency_code && toMinorUnits(amount, currency) === toMinorUnits(rp.amount, rp.currency_code)
    const approved = isApproved(status)
    const note = !approved ? null
      : rp.status === "cancelled" ? "charged after the recurring payment was cancelled here: a person must stop it and refund at the gateway"
      : !sameMoney ? `charged ${amount} ${currency}, the subscription is ${rp.amount} ${rp.currency_code}: a person must check it`
      : null
    const retried = isRetryClientOrderId(row.client_orderid)
    if (!charge) {
      charge = await svc.createPaynetEasyRecurringCharges({
        ...key, client_orderid: row.client_orderid, status: note ? "unmatched" : status.status, amount: rp.amount,
        currency_code: rp.currency_code, error_code: errorCodeOf(status) ?? null, error_message: errorMessageOf(status) ?? null,
        note, charged_at: new Date(),
      })
      // a charge came (whatever its outcome): the gateway's next attempt is a period away, and an "overdue" flag is
      // answered; a decline makes the subscription past due (never silently active), an approved charge ends that
      if (rp.status !== "cancelled") {
        const overdueAnswered = rp.status === "needs_attention" && (rp.reason ?? "").startsWith(OVERDUE_REASON_PREFIX)
        const settles = overdueAnswered || isCharging(rp.status)
        const standing = !settles || (approved && note) ? {}
          : approved ? { status: "active" as const, reason: null }
          : { status: "past_due" as const, reason: pastDueReason(status.status, charge.error_message) }
        await svc.updatePaynetEasyRecurringPayments({
          id: rp.id, ...(retried ? {} : { next_charge_at: nextChargeDate(new Date(), rp.period, rp.interval) }), ...standing,
        })
      }
      if (retried) await settleRetryIntent(container, rp.id, row.client_orderid, row.orderid, status.status, charge.error_message)
    }
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    if (note) {
      logger.warn(`PaynetEasy: recurring charge ${row.orderid} of ${rp.id}: ${note}`)
      return { outcome: "flagged", detail: note }
    }
    if (!approved) {
      await container.resolve(Modules.EVENT_BUS).emit({
        name: CHARGE_FAILED_EVENT,
        data: { id: rp.id, order_id: rp.order_id, customer_id: rp.customer_id, charge_id: charge.id, status: status.status,
          error_code: charge.error_code, error_message: charge.error_message },
      })
      return { outcome: "processed", detail: `charge ${row.orderid} ${status.status}: recorded, ${CHARGE_FAILED_EVENT} emitted` }
    }
    const renewal = await renew(container, rp, charge)
    if (!renewal.ok) {
      await svc.updatePaynetEasyRecurringCharges({ id: charge.id, status: "unmatched", note: scrub(renewal.reason), renewal_order_id: renewal.orderId ?? null })
      logger.warn(`PaynetEasy: recurring charge ${row.orderid} of ${rp.id}: ${renewal.reason}`)
      return { outcome: "flagged", detail: renewal.reason }
    }
    return { outcome: "processed", detail: `charge ${row.orderid} approved: renewal order ${renewal.orderId}` }
  }, { timeout: 60 })
}
