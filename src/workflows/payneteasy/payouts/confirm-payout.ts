/**
 * confirmPayoutWorkflow: the second step of a two-step payout (payout-pay), once, for an approved check only.
 *
 *   confirmPayoutStep  under the payout lock (Medusa's locking module), so concurrent confirms queue up and the
 *                      second one sees the first one's result:
 *                      - the same Idempotency-Key as the confirm that paid → that payout again (a retry or double click);
 *                      - already confirmed with another key → 409 (two admins: one pay);
 *                      - not a two-step payout, or its check not approved (declined, still checking) → 409, nothing sent;
 *                      - a check still `checking` is first refreshed by STATUS;
 *                      - else the key is stored (unique index), then PAYOUT_V4_PAY is sent (gateway-calls.ts `sendPay`).
 */
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { refreshFromStatus, sendPay } from "../../../core/payouts/gateway-calls"
import { applyChange, getPayout, payoutService, withPayoutLock, type PayoutRow } from "../../../core/payouts/payout-state"

export type ConfirmPayoutInput = { id: string; idempotency_key: string; actor: string }
export type ConfirmPayoutResult = { payout: PayoutRow; replayed: boolean }

export const confirmPayoutStep = createStep("payneteasy-payout-confirm", async (input: ConfirmPayoutInput, { container }) => {
  const result = await withPayoutLock(container, input.id, async (): Promise<ConfirmPayoutResult> => {
    let payout = await getPayout(container, input.id)
    if (!payout) throw new MedusaError(MedusaError.Types.NOT_FOUND, `payout ${input.id} not found`)
    if (payout.confirm_idempotency_key === input.idempotency_key) return { payout, replayed: true }
    if (payout.method !== "two_step") {
      throw new MedusaError(MedusaError.Types.CONFLICT, `payout ${payout.id} is a ${payout.method} payout: only two-step payouts are confirmed`)
    }
    if (payout.confirm_idempotency_key) {
      throw new MedusaError(MedusaError.Types.CONFLICT, `payout ${payout.id} was already confirmed by ${payout.confirmed_by ?? "another request"}; it is paid once`)
    }
    const [keyUsed] = (await payoutService(container).listPaynetEasyPayouts({ confirm_idempotency_key: input.idempotency_key }, { take: 1 })) as unknown as PayoutRow[]
    if (keyUsed) {
      throw new MedusaError(MedusaError.Types.CONFLICT, `Idempotency-Key was already used to confirm payout ${keyUsed.id}; use a new key`)
    }
    if (payout.status === "checking") {
      payout = await refreshFromStatus(container, payout, "gateway:status", "payout-check result by STATUS (before confirm)")
    }
    if (payout.status !== "checked") {
      throw new MedusaError(
        MedusaError.Types.CONFLICT,
        `payout ${payout.id} cannot be paid: its check is ${payout.status === "check_declined" ? "declined" : `not approved (status ${payout.status})`}`
      )
    }
    payout = await applyChange(container, payout, {
      actor: input.actor, event: "confirmed; sending payout-pay", status: "processing",
      patch: { confirm_idempotency_key: input.idempotency_key, confirmed_by: input.actor, confirmed_at: new Date() },
    })
    payout = await sendPay(container, payout, input.actor)
    return { payout, replayed: false }
  })
  return new StepResponse(result)
})

export const confirmPayoutWorkflow = createWorkflow("payneteasy-confirm-payout", (input: ConfirmPayoutInput) => {
  return new WorkflowResponse(confirmPayoutStep(input))
})

export async function runConfirmPayout(container: MedusaContainer, input: ConfirmPayoutInput): Promise<ConfirmPayoutResult> {
  const { result } = await confirmPayoutWorkflow(container).run({ input })
  return result as ConfirmPayoutResult
}
