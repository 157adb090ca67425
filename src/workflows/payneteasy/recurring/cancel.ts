/**
 * Cancelling a recurring payment from the admin. PaynetEasy's public v4 documentation describes create-, process- and
 * update-recurring-payment(s) but no call that stops or closes a recurring payment (README "Recurring payments"), so
 * this does not pretend: it marks the row cancelled (who, when) under the recurring payment's lock, so no later charge
 * becomes a renewal order (such a charge is flagged for a refund instead), and answers `gateway_cancelled: false` with
 * what a person must do: stop the schedule in the PaynetEasy merchant portal (Orders → Recurring payments).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { ADMIN_LOCK_WAIT_SECONDS, underLock } from "../busy-lock"
import type { RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { service } from "./create-from-order"

export const CANCEL_NOTE =
  "PaynetEasy documents no API call to stop a recurring payment: stop it in the PaynetEasy merchant portal (Orders → Recurring payments). " +
  "Until then the gateway may still charge; such charges are flagged here for a refund and create no order."

export async function cancelRecurringPayment(container: MedusaContainer, id: string, actor: string): Promise<RecurringPaymentRow> {
  const svc = service(container)
  return underLock(container, `payneteasy:recurring:${id}`, async () => {
    const [row] = (await svc.listPaynetEasyRecurringPayments({ id }, { take: 1 })) as RecurringPaymentRow[]
    if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Recurring payment ${id} was not found`)
    if (row.status === "cancelled") return row
    if (row.status !== "active" && row.status !== "needs_attention") {
      throw new MedusaError(MedusaError.Types.CONFLICT, `Recurring payment ${id} is ${row.status}: there is nothing to cancel`)
    }
    return svc.updatePaynetEasyRecurringPayments({ id, status: "cancelled", cancelled_at: new Date(), cancelled_by: actor, next_charge_at: null })
  }, { timeoutSeconds: ADMIN_LOCK_WAIT_SECONDS, busy: `Recurring payment ${id} is being changed by another request (a charge being recorded, or another cancel); try again in a moment` })
}
