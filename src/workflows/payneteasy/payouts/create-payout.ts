/**
 * createPayoutWorkflow: one admin request to send money out (single / two-step check / hosted form).
 *
 *   checkPayoutAllowedStep  provider configured for payouts, currency allowed, amount within the limit, a saved card
 *                           active and of the payout's registration — all before anything is stored or sent
 *   recordPayoutStep        under a lock on the Idempotency-Key: the payout of an earlier request with this key is
 *                           returned (same body) or refused (409, different body); else a `pending` payout is stored
 *                           with its history row. The unique index on idempotency_key is the backstop.
 *                           Compensation: a payout that is still `pending` and never sent is marked `failed`.
 *   sendPayoutStep          a card payout asks PAN eligibility first (core/payouts/eligibility.ts) and waits a moment
 *                           for its outcome: ineligible → refused in words, nothing else sent; approved → the payout's
 *                           request; still open → left `eligibility_checking` (a callback or reconciliation settles it
 *                           and sends then). Then, under the payout lock, the one gateway request (gateway-calls.ts
 *                           `sendInitial`); for a two-step payout a short STATUS poll so the admin usually sees the
 *                           check result at once.
 *
 * The full destination never enters the workflow (see destination.ts: the input carries a one-time vault token).
 */
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { generateEntityId, MedusaError, Modules } from "@medusajs/framework/utils"
import { discardDestination, takeDestination } from "../../../core/payouts/destination"
import { refreshFromStatus, sendInitial } from "../../../core/payouts/gateway-calls"
import { askEligibility, asksEligibility, holdDestination, settleEligibility } from "../../../core/payouts/eligibility"
import { assertWithinLimits, payoutProvider } from "../../../core/connection/payout-config"
import { payoutCardFor } from "../../../core/payouts/saved-card-destination"
import { applyChange, getPayout, payoutService, withPayoutLock, type PayoutRow } from "../../../core/payouts/payout-state"
import { LOCK_KEYS } from "../../../core/locks/lock-keys"

export type CreatePayoutInput = {
  method: "single" | "two_step" | "form"
  amount: string
  currency_code: string
  destination_type: "card" | "saved_card" | "bank" | "wallet" | "phone" | null
  destination_summary: string | null
  /** The saved card's id (`pnecard_…`) for a saved-card destination: checked before anything is stored. */
  saved_card_id: string | null
  /** One-time token of the full destination in the in-process vault (destination.ts); null for the form. */
  destination_ref: string | null
  recipient: string | null
  purpose: string | null
  idempotency_key: string
  /** sha256 of the canonical request body: the same key with a different body is refused. */
  request_hash: string
  actor: string
}

export type CreatePayoutResult = { payout: PayoutRow; replayed: boolean }

export const checkPayoutAllowedStep = createStep("payneteasy-payout-check-allowed", async (input: CreatePayoutInput, { container }) => {
  const provider = await payoutProvider(container)
  if (!provider) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "payouts are not configured: set the `payouts` option ({ currencies, maxAmount }) of a PaynetEasy provider")
  }
  assertWithinLimits(provider, input.amount, input.currency_code)
  if (input.saved_card_id) await payoutCardFor(container, input.saved_card_id, provider.providerId)
  return new StepResponse({ providerId: provider.providerId })
})

export const recordPayoutStep = createStep(
  "payneteasy-payout-record",
  async (input: { request: CreatePayoutInput; providerId: string }, { container }) => {
    const { request } = input
    const locking = container.resolve(Modules.LOCKING)
    return locking.execute(LOCK_KEYS.payoutIdempotencyKey(request.idempotency_key), async () => {
      const svc = payoutService(container)
      const [existing] = (await svc.listPaynetEasyPayouts({ idempotency_key: request.idempotency_key }, { take: 1 })) as unknown as PayoutRow[]
      if (existing) {
        discardDestination(request.destination_ref)
        if (existing.request_hash !== request.request_hash) {
          throw new MedusaError(MedusaError.Types.CONFLICT, `Idempotency-Key was already used for payout ${existing.id} with a different request; use a new key for a new payout`)
        }
        return new StepResponse({ payout: existing, created: false }, undefined as string | undefined)
      }
      // client_orderid = the payout's own id: unique, ours, and how a lost reply is found again by STATUS.
      const id = generateEntityId(undefined, "pnepo")
      const payout = (await svc.createPaynetEasyPayouts({
        id,
        provider_id: input.providerId,
        method: request.method,
        status: "pending",
        amount: request.amount,
        currency_code: request.currency_code,
        destination_type: request.destination_type,
        destination_summary: request.destination_summary,
        recipient: request.recipient,
        purpose: request.purpose,
        client_orderid: id,
        saved_card_id: request.saved_card_id,
        idempotency_key: request.idempotency_key,
        request_hash: request.request_hash,
        created_by: request.actor,
      })) as PayoutRow
      await svc.createPaynetEasyPayoutHistories({
        payout_id: payout.id, at: new Date(), actor: request.actor, event: "created", from_status: null, to_status: "pending",
        gateway: null, note: `${request.method} payout of ${request.amount} ${request.currency_code}${request.destination_summary ? ` to ${request.destination_summary}` : ""}`,
      })
      return new StepResponse({ payout, created: true }, payout.id as string | undefined)
    }, { timeout: 30 })
  },
  async (payoutId, { container }) => {
    if (!payoutId) return
    await withPayoutLock(container, payoutId, async () => {
      const payout = await getPayout(container, payoutId)
      if (payout && payout.status === "pending" && !payout.gateway_order_id) {
        const sent = (await payoutService(container).listPaynetEasyPayoutHistories({ payout_id: payoutId }, { take: 10 })) as unknown as Array<{ event: string }>
        if (sent.every((h) => h.event === "created")) {
          await applyChange(container, payout, { actor: "system", event: "rolled back before anything was sent", status: "failed" })
        }
      }
    })
  }
)

const CHECK_POLL_MS = [150, 300, 500, 750, 1000]
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export const sendPayoutStep = createStep(
  "payneteasy-payout-send",
  async (input: { request: CreatePayoutInput; recorded: { payout: PayoutRow; created: boolean } }, { container }) => {
    const { request, recorded } = input
    if (!recorded.created) {
      const current = await getPayout(container, recorded.payout.id)
      return new StepResponse<CreatePayoutResult>({ payout: current ?? recorded.payout, replayed: true })
    }
    const destination = takeDestination(request.destination_ref)
    if (request.method !== "form" && !destination) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "the payout destination was not handed over (expired); nothing was sent")
    }
    let payout: PayoutRow
    if (destination && asksEligibility(container, recorded.payout)) {
      payout = await withPayoutLock(container, recorded.payout.id, () => askEligibility(container, recorded.payout, destination, request.actor))
      for (const ms of CHECK_POLL_MS) {
        if (payout.status !== "eligibility_checking") break
        await sleep(ms)
        payout = await settleEligibility(container, payout.id, "gateway:status", "STATUS", destination)
      }
      if (payout.status === "eligibility_checking" && destination.type === "card") holdDestination(payout.id, destination)
    } else {
      payout = await withPayoutLock(container, recorded.payout.id, async () => {
        const skipped = destination && (recorded.payout.destination_type === "card" || recorded.payout.destination_type === "saved_card") && recorded.payout.method !== "form"
        const p = skipped
          ? await applyChange(container, recorded.payout, { actor: "system", event: "PAN eligibility skipped: the registration's option panEligibility is false", patch: { eligibility: "skipped" } })
          : recorded.payout
        return sendInitial(container, p, destination, request.actor)
      })
    }
    if (payout.method === "two_step" && payout.status === "checking") {
      for (const ms of CHECK_POLL_MS) {
        await sleep(ms)
        payout = await withPayoutLock(container, payout.id, async () => {
          const fresh = (await getPayout(container, payout.id)) as PayoutRow
          return fresh.status === "checking" ? refreshFromStatus(container, fresh, "gateway:status", "payout-check result by STATUS") : fresh
        })
        if (payout.status !== "checking") break
      }
    }
    return new StepResponse<CreatePayoutResult>({ payout, replayed: false })
  }
)

export const createPayoutWorkflow = createWorkflow("payneteasy-create-payout", (input: CreatePayoutInput) => {
  const allowed = checkPayoutAllowedStep(input)
  const recorded = recordPayoutStep({ request: input, providerId: allowed.providerId })
  const result = sendPayoutStep({ request: input, recorded })
  return new WorkflowResponse(result)
})

export async function runCreatePayout(container: MedusaContainer, input: CreatePayoutInput): Promise<CreatePayoutResult> {
  const { result } = await createPayoutWorkflow(container).run({ input })
  return result as CreatePayoutResult
}
