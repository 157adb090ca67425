/**
 * One payment attempt's state in a component (idle → working → declined / pending / error, or the page is left for
 * the gateway), shared by the hosted button, the card form, saved cards and the pay-again button: each gives it the
 * step its core call returned, and it completes the cart, leaves the page, or shows the right message. `pending` (the
 * bank has not decided, or a failure may hide a payment) keeps the pay buttons off: the shopper is not invited to pay
 * twice (`payBlocked`).
 */
import { useCallback, useState } from "react"
import { waitForOrder, type NextStep, type OrderLike, type PaymentOutcome } from "../checkout"
import { declineMessage, errorOutcome, format } from "../messages"
import { usePaynetEasy } from "./context"
import { followStep } from "./follow-step"

export type RunState =
  | { status: "idle" }
  | { status: "working"; message: string }
  | { status: "declined"; message: string }
  | { status: "pending"; message: string }
  | { status: "error"; message: string }
  | { status: "done"; order: OrderLike; message: string }

/** The state plus `run(work)`: `work` returns a step; the rest is handled here. */
export function usePaymentRun(cartId: string | undefined, onOrder?: (order: OrderLike) => void) {
  const { store, messages } = usePaynetEasy()
  const [state, setState] = useState<RunState>({ status: "idle" })

  const settle = useCallback(
    (outcome: PaymentOutcome) => {
      if (outcome.type === "order") {
        setState({ status: "done", order: outcome.order, message: format(messages.orderPlaced, { display_id: outcome.order.display_id }) })
        onOrder?.(outcome.order)
      } else if (outcome.type === "action") {
        setState({ status: "working", message: messages.threeDSecure })
        followStep(outcome.step)
      } else if (outcome.type === "declined") {
        setState({ status: "declined", message: declineMessage(messages, outcome.error) })
      } else {
        setState({ status: "pending", message: messages.notConfirmed })
      }
    },
    [messages, onOrder]
  )

  /**
   * `startsOnly`: `work` only starts a session (the hosted page's registration): nothing can have been paid if it
   * fails, so its failure is `notStarted` and the button stays on; otherwise a failure may hide a payment.
   */
  const run = useCallback(
    async (work: () => Promise<NextStep>, workingText = messages.processing, startsOnly = false) => {
      setState({ status: "working", message: workingText })
      try {
        let step: NextStep
        try {
          step = await work()
        } catch (e) {
          if (startsOnly) return setState({ status: "error", message: messages.notStarted })
          throw e
        }
        if (step.type === "redirect" || step.type === "html") {
          setState({ status: "working", message: step.type === "redirect" && workingText === messages.redirecting ? messages.redirecting : messages.threeDSecure })
          followStep(step)
          return
        }
        if (step.type === "declined") return settle({ type: "declined", error: step.error })
        if (step.type === "card") return setState({ status: "idle" })
        if (!cartId) throw new Error("no cart")
        settle(await waitForOrder(store, cartId, { onPending: () => setState({ status: "working", message: messages.confirming }) }))
      } catch (e) {
        // never the server's raw text (ids); a failure that may hide a payment in progress is "confirming", not an error
        setState(errorOutcome(messages, e))
      }
    },
    [store, cartId, messages, settle]
  )

  return { state, setState, run, settle }
}

/** Whether the pay buttons are off: while working, once paid, and while a payment may still be in progress. */
export function payBlocked(state: RunState): boolean {
  return state.status === "working" || state.status === "done" || state.status === "pending"
}

/** The message line every kit component shows under its button (role=status / alert for screen readers). */
export function statusRole(state: RunState): "alert" | "status" {
  return state.status === "declined" || state.status === "error" ? "alert" : "status"
}
