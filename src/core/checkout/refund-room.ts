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
 * On a preauth, only a capture the plugin's ledger shows approved is room. One still pending there (maybe sent and not
 * shown by STATUS yet, or still processing) is not: if the gateway never made it, a RETURN of that money releases the
 * preauth's hold instead of returning money, and Medusa would show a refund of money it never took (found by the fault
 * trials, seed 20261123: a capture lost to an HTTP 500, then refunds of it). Nor is a Capture row with no ledger entry
 * at all: Medusa writes the row before it calls the provider, so a capture still waiting for the Payment's ledger lock
 * has one (found from outside, issue 49: a capture pending at a slow gateway, then a refund and a second capture sent
 * meanwhile; the refund's turn came first and its RETURN released the hold). Such a refund waits until the gateway
 * confirms the capture. A sale's captures are its approved sale: all room.
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { fromMinorUnits } from "../../gateway/money"
import { rowsMinor } from "./amounts"
import { isApproved } from "../../gateway/statuses"
import { sessionDataSchema } from "./session-data"

type Row = { id: string; raw_amount?: BigNumberInput; amount?: BigNumberInput }
type Services = {
  refundService: { retrieve(id: string, config: { select: string[] }): Promise<{ payment_id?: string; payment?: { id: string } }> }
  paymentService: {
    retrieve(
      id: string,
      config: { select: string[]; relations: string[] }
    ): Promise<{ data?: Record<string, unknown> | null; captures?: Row[]; refunds?: Row[] }>
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
  const sum = (rows: Row[] | undefined) => rowsMinor(rows, currency)
  const confirmed = confirmedCaptureIds(payment.data ?? undefined)
  const waiting = sum(payment.captures?.filter((c) => confirmed !== "all" && !confirmed.has(c.id)))
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

/**
 * Refuses (nothing sent) the cancel of a preauth's Payment that holds captured money not refunded. A VOID of such a
 * preauth voids its captures too, and a full RETURN returns them: the money would go back to the shopper while the
 * order still counts it paid (no Refund row, no order transaction). Medusa cancels such a Payment from the collection
 * cancel of an order edit, exchange or claim confirm (cancelPaymentCollectionWorkflow skips Payments with
 * `captured_at`, but it reads them before an admin's capture of the rest lands: the outside attack raced the two and
 * the VOID took back 10.42 Medusa counted paid), found from outside (issue 49). Medusa's order cancel refunds captured
 * money first, as does the plugin's cancel route (order-cancel.ts), so neither has captured money left here. A sale
 * is captured at authorization; its cancel with money captured comes only from the cart completion's compensation (no
 * order was made), and that one is given back, or the shopper would be charged for nothing.
 */
export async function assertNoCaptureKept(cradle: unknown, paymentId: string, transactionType: string, currency: string): Promise<void> {
  if (transactionType === "sale") return
  let payment: { captures?: Row[]; refunds?: Row[] }
  try {
    payment = await (cradle as Services).paymentService.retrieve(paymentId, { select: ["id"], relations: ["captures", "refunds"] })
  } catch (e) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `PaynetEasy cancel: cannot read Medusa's captures and refunds of payment ${paymentId} (${(e as Error).message}); nothing was sent`
    )
  }
  const kept = rowsMinor(payment.captures, currency) - rowsMinor(payment.refunds, currency)
  if (kept > 0n) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `PaynetEasy: payment ${paymentId} has ${fromMinorUnits(kept, currency)} captured and not refunded; canceling it would give that ` +
        `money back to the shopper while the order still counts it paid. Nothing was sent. Refund what was captured first, ` +
        `or cancel the order (its cancel refunds the captured money and releases the rest)`
    )
  }
}

/** The Medusa Capture ids the gateway confirmed: every one on a sale, on a preauth those with an approved, final entry. */
export function confirmedCaptureIds(data: Record<string, unknown> | undefined): Set<string> | "all" {
  const parsed = sessionDataSchema.pick({ transactionType: true, captures: true }).partial().safeParse(data ?? {})
  if (!parsed.success) return new Set()
  if (parsed.data.transactionType === "sale") return "all"
  return new Set((parsed.data.captures ?? []).filter((e) => e.pending !== true && isApproved(e.status)).map((e) => e.id))
}
