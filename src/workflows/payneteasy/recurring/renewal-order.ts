/**
 * An approved recurring charge becomes a paid renewal order (issue 33: money actions are workflows). Run by the
 * recurring charge's own path (core/recurring/charge-callback.ts, under the recurring payment's lock), which hands it
 * `runRenewalOrder`. The domain lives in core/recurring/renewal-order.ts; each step does one thing:
 *
 *  1. payneteasy-renewal-plan            read the original order, build the new order's input (read-only; the original
 *                                        gone → NOT_FOUND, nothing created)
 *  2. create-order-workflow (as a step)  core-flows createOrderWorkflow; undone by its own compensation (the order deleted)
 *  3. payneteasy-renewal-total           the order's total against the charge, exactly (read-only). A different total is
 *                                        not an error: the order stays for a person, no payment is recorded, and the
 *                                        charge is flagged by the caller (as before this was a workflow)
 *  then, only when the totals match:
 *  4. create-order-payment-collection    core-flows; undone by its own compensation (the collection and its link removed)
 *  5. payneteasy-renewal-payment-token   a one-time token naming the charge; undone by clearing it
 *  6. create-payment-sessions            core-flows; undone by deleting the session (the provider's deletePayment only
 *                                        asks STATUS: a captured sale is never voided or returned from there)
 *  7. payneteasy-renewal-authorize       STATUS finds the sale approved: the payment recorded captured. Not undone: it
 *                                        records money the gateway already took (deleting the session in step 6's
 *                                        compensation takes the record away with it)
 *  8. payneteasy-renewal-book-captures   the captures booked as order transactions (book-captures.ts); no compensation
 *                                        of its own: the order's deletion (step 2 undone) takes its transactions with it
 *  9. payneteasy-renewal-link            the charge names its order and its token is spent (last step: nothing to undo)
 *
 * What cannot be undone: the charge itself (the gateway took the money before any of this ran). A failure in any
 * step rolls the Medusa side back to "no renewal order"; the caller then flags the charge for a person.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createOrderPaymentCollectionWorkflow, createOrderWorkflow, createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import type { RecurringChargeRow, RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { bookCapturesOnOrder } from "../../../core/checkout/book-captures"
import {
  authorizeRenewalPayment, clearRenewalPaymentToken, issueRenewalPaymentToken, linkRenewalOrder, renewalOrderInput,
  renewalTotalCheck, type RenewalResult,
} from "../../../core/recurring/renewal-order"

export const RENEWAL_ORDER_WORKFLOW = "payneteasy-renewal-order"

type Input = { rp: RecurringPaymentRow; charge: RecurringChargeRow }

const planRenewalStep = createStep("payneteasy-renewal-plan", async (input: Input, { container }) => {
  return new StepResponse(await renewalOrderInput(container, input.rp, input.charge))
})

const checkRenewalTotalStep = createStep("payneteasy-renewal-total", async (input: { order_id: string; charge: RecurringChargeRow }, { container }) => {
  return new StepResponse(await renewalTotalCheck(container, input.order_id, input.charge))
})

const issueTokenStep = createStep(
  "payneteasy-renewal-payment-token",
  async (input: { charge_id: string }, { container }) => new StepResponse(await issueRenewalPaymentToken(container, input.charge_id), input.charge_id),
  async (chargeId, { container }) => {
    if (chargeId) await clearRenewalPaymentToken(container, chargeId)
  }
)

const authorizeRenewalStep = createStep("payneteasy-renewal-authorize", async (input: { session_id: string }, { container }) => {
  return new StepResponse(await authorizeRenewalPayment(container, input.session_id))
})

const bookRenewalCapturesStep = createStep("payneteasy-renewal-book-captures", async (input: { order_id: string; payment_id: string }, { container }) => {
  await bookCapturesOnOrder(container, input.order_id, input.payment_id)
  return new StepResponse(input.payment_id)
})

const linkRenewalStep = createStep("payneteasy-renewal-link", async (input: { charge_id: string; order_id: string }, { container }) => {
  await linkRenewalOrder(container, input.charge_id, input.order_id)
  return new StepResponse(input.order_id)
})

export const createRenewalOrderWorkflow = createWorkflow(RENEWAL_ORDER_WORKFLOW, (input: Input) => {
  const orderInput = planRenewalStep(input)
  const order = createOrderWorkflow.runAsStep({ input: orderInput })
  const orderId = transform({ order }, ({ order }) => order.id)
  const check = checkRenewalTotalStep({ order_id: orderId, charge: input.charge })
  const paid = when("payneteasy-renewal-total-matches", { check }, ({ check }) => check.matches).then(() => {
    const collections = createOrderPaymentCollectionWorkflow.runAsStep({
      input: transform({ orderId, check }, ({ orderId, check }) => ({ order_id: orderId, amount: check.total as any })), // as any: core-flows types the amount as number, but it takes (and we keep) the exact BigNumber,
    })
    const chargeId = transform({ input }, ({ input }) => input.charge.id)
    const token = issueTokenStep({ charge_id: chargeId })
    const session = createPaymentSessionsWorkflow.runAsStep({
      input: transform({ collections, token, input }, ({ collections, token, input }) => {
        const collection = Array.isArray(collections) ? collections[0] : collections
        return { payment_collection_id: collection.id, provider_id: input.rp.provider_id!, data: { recurring_charge: token } }
      }),
    })
    const paymentId = authorizeRenewalStep(transform({ session }, ({ session }) => ({ session_id: session.id })))
    bookRenewalCapturesStep({ order_id: orderId, payment_id: paymentId })
    return linkRenewalStep({ charge_id: chargeId, order_id: orderId })
  })
  const result = transform({ orderId, check, paid }, ({ orderId, check, paid }): RenewalResult =>
    paid && check.matches ? { ok: true, orderId } : { ok: false, orderId, reason: check.matches ? "no payment recorded" : check.reason })
  return new WorkflowResponse(result)
})

/**
 * Runs the renewal workflow for an approved charge. A step failing is an answer, not an exception: the workflow has
 * rolled the Medusa side back (no order), and the caller flags the charge with the reason.
 */
export async function runRenewalOrder(container: MedusaContainer, rp: RecurringPaymentRow, charge: RecurringChargeRow): Promise<RenewalResult> {
  const { result, errors, transaction } = await createRenewalOrderWorkflow(container).run({ input: { rp, charge }, throwOnError: false })
  if (!errors?.length) return result as RenewalResult
  const message = errors.map((e) => String((e.error as Error)?.message ?? e.error).replace(/\s+/g, " ").trim()).join("; ")
  // What ran and was not undone (the failing step itself undid its own nested workflow; Medusa still marks that
  // step's compensation failed, so the transaction's state alone does not say whether the rest was rolled back).
  const steps = Object.values((transaction?.getFlow?.()?.steps ?? {}) as Record<string, { definition?: { action?: string }; invoke: { state: string }; compensate: { state: string } }>)
  const kept = steps.filter((st) => st.definition?.action && st.invoke.state === "done" && st.compensate.state !== "reverted").map((st) => st.definition!.action)
  const rolledBack = !kept.length
    ? "nothing of it was kept (the workflow undid its steps)"
    : `undoing its steps did not finish (${kept.join(", ")}): check for an unpaid renewal order of charge ${charge.id}`
  return { ok: false, reason: `the renewal order could not be made and paid (${message}); ${rolledBack}` }
}
