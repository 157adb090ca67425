/**
 * What a refund may still return: what Medusa's own rows say was captured, less what the gateway has not confirmed
 * capturing, less what was refunded, checked exactly (to the minor unit) before a RETURN is sent — the one check the
 * provider adds to Medusa's own.
 *
 * Why this exists: Medusa's refund guard (payment module 2.21.2 `refundPayment_`, and the refund workflow's validation
 * step) lets a refund exceed the captured amount by one minor unit (its "currency epsilon"). The gateway accepts a
 * RETURN beyond the captured money on a preauth that still holds some: it releases that much of the hold, so an
 * uncaptured order could no longer capture its total (found by the money model, reliability-tests/money-model.spec.ts,
 * seed 3: checkout, then a 0.01 refund before any capture). Read like capture-amount.ts: through the payment module's
 * internal services in the provider's cradle; if they cannot be read, nothing is returned.
 *
 * A capture still pending in the plugin's ledger (maybe sent and not shown by STATUS yet, or still processing) is not
 * room: if the gateway never made it, a RETURN of that money releases the preauth's hold instead of returning money,
 * and Medusa would show a refund of money it never took (found by the fault trials, seed 20261123: a capture lost to
 * an HTTP 500, then refunds of it). Its refund waits until reconciliation confirms the capture.
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { fromMinorUnits } from "../../gateway/money"
import { toMinor } from "./amounts"
import { pendingLedgerEntries } from "./session-data"

type Row = { id: string; raw_amount?: BigNumberInput; amount?: BigNumberInput }
type Services = {
  refundService: { retrieve(id: string, config: { select: string[] }): Promise<{ payment_id?: string; payment?: { id: string } }> }
  paymentService: {
    retrieve(id: string, config: { select: string[]; relations: string[] }): Promise<{ data?: Record<string, unknown> | null; captures?: Row[]; refunds?: Row[] }>
  }
}

/** Refuses (nothing sent) a refund of `amount` minor units that is more than captured − refunded, this refund aside. */
export async function assertRefundable(cradle: unknown, refundId: string, amount: bigint, currency: string): Promise<void> {
  let payment: { data?: Record<string, unknown> | null; captures?: Row[]; refunds?: Row[] }
  try {
    const services = cradle as Services
    const refund = await services.refundService.retrieve(refundId, { select: ["id", "payment_id"] })
    const paymentId = refund.payment_id ?? refund.payment?.id
    if (!paymentId) throw new Error("the refund names no payment")
    payment = await services.paymentService.retrieve(paymentId, { select: ["id", "data"], relations: ["captures", "refunds"] })
  } catch (e) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `PaynetEasy refund: cannot read Medusa's captures and refunds of refund ${refundId} (${(e as Error).message}); nothing was returned`
    )
  }
  const sum = (rows: Row[] | undefined) => (rows ?? []).reduce((n, r) => n + toMinor((r.raw_amount ?? r.amount ?? 0) as BigNumberInput, currency), 0n)
  const unconfirmed = new Set(pendingLedgerEntries(payment.data ?? undefined).filter((e) => e.kind === "capture").map((e) => e.id))
  const waiting = sum(payment.captures?.filter((c) => unconfirmed.has(c.id)))
  const room = sum(payment.captures) - waiting - sum(payment.refunds?.filter((r) => r.id !== refundId))
  if (amount > room) {
    const why = waiting > 0n ? `; ${fromMinorUnits(waiting, currency)} captured is not confirmed by the gateway yet and can be refunded once it is` : ""
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `PaynetEasy refund of ${fromMinorUnits(amount, currency)} is more than what was captured and not refunded yet ` +
        `(${fromMinorUnits(room > 0n ? room : 0n, currency)})${why}; nothing was returned`
    )
  }
}
