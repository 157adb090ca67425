/**
 * The PAN eligibility rules that need no gateway (eligibility.ts): what each gateway status means for a check, the
 * check's own client order id, which payouts ask, the typed card held in memory, and the words of a refusal.
 */
import { GATEWAY_STATUSES, isApproved, isFinal } from "../../../gateway/statuses"
import { OURS, paymentConfig, providerOptions } from "../../connection/__tests__/payment-config"
import {
  asksEligibility, destinationAfterCheck, ELIGIBILITY_OUTCOME, eligibilityClientOrderId, HOLD_MS, holdDestination,
  ineligibleWords, payoutIdOfCheck, takeHeldDestination,
} from "../eligibility"
import type { PayoutRow } from "../payout-state"
import type { MedusaContainer } from "@medusajs/framework/types"

const CARD = { type: "card" as const, card_number: "4444555566661111" }

describe("ELIGIBILITY_OUTCOME over every gateway status", () => {
  it.each(GATEWAY_STATUSES.map((s) => [s]))("%s", (status) => {
    // approved: eligible; any other final status: ineligible; not final (or unlisted): wait for STATUS
    expect(ELIGIBILITY_OUTCOME[status]).toBe(isApproved(status) ? "eligible" : isFinal(status) ? "ineligible" : "waiting")
  })
})

describe("the check's client order id", () => {
  it("is the payout's with -e, and leads back to the payout", () => {
    const id = eligibilityClientOrderId({ client_orderid: "pnepo_01ABC" })
    expect(id).toBe("pnepo_01ABC-e")
    expect(payoutIdOfCheck(id)).toBe("pnepo_01ABC")
  })
  it("a payout's own id is not a check's", () => {
    expect(payoutIdOfCheck("pnepo_01ABC")).toBeUndefined()
    expect(payoutIdOfCheck("")).toBeUndefined()
  })
})

describe("asksEligibility", () => {
  const container = (panEligibility?: boolean) => ({
    resolve: (key: string) => {
      if (key !== "configModule") throw new Error(`unexpected resolve ${key}`)
      return paymentConfig([{ resolve: OURS, id: "cards", options: { ...providerOptions({}), ...(panEligibility === undefined ? {} : { panEligibility }) } }])
    },
  }) as unknown as MedusaContainer
  const payout = (over: Partial<PayoutRow>) => ({ method: "single", destination_type: "card", provider_id: "pp_payneteasy_cards", ...over }) as PayoutRow

  it("a card or saved card payout asks, unless the registration turned it off", () => {
    expect(asksEligibility(container(), payout({}))).toBe(true)
    expect(asksEligibility(container(), payout({ destination_type: "saved_card", method: "two_step" }))).toBe(true)
    expect(asksEligibility(container(false), payout({}))).toBe(false)
  })
  it("the form, a bank, a wallet or a phone does not", () => {
    expect(asksEligibility(container(), payout({ method: "form", destination_type: null }))).toBe(false)
    for (const destination_type of ["bank", "wallet", "phone"]) expect(asksEligibility(container(), payout({ destination_type }))).toBe(false)
  })
})

describe("the typed card held in memory", () => {
  it("is taken once", () => {
    holdDestination("po-once", CARD, 1_000)
    expect(takeHeldDestination("po-once", 1_000)).toEqual(CARD)
    expect(takeHeldDestination("po-once", 1_000)).toBeUndefined()
  })
  it("is gone after HOLD_MS", () => {
    holdDestination("po-late", CARD, 1_000)
    expect(takeHeldDestination("po-late", 1_000 + HOLD_MS + 1)).toBeUndefined()
    holdDestination("po-edge", CARD, 1_000)
    expect(takeHeldDestination("po-edge", 1_000 + HOLD_MS)).toEqual(CARD)
  })
  it("after the check: a saved card from its row, a typed card from memory, else nothing", () => {
    expect(destinationAfterCheck({ id: "po-s", destination_type: "saved_card", saved_card_id: "pnecard_1" } as PayoutRow))
      .toEqual({ type: "saved_card", card_id: "pnecard_1" })
    holdDestination("po-t", CARD)
    expect(destinationAfterCheck({ id: "po-t", destination_type: "card", saved_card_id: null } as PayoutRow)).toEqual(CARD)
    expect(destinationAfterCheck({ id: "po-t", destination_type: "card", saved_card_id: null } as PayoutRow)).toBeUndefined()
  })
})

describe("ineligibleWords", () => {
  it("gives the gateway's reason when it has one, and says no payout request was sent", () => {
    expect(ineligibleWords({ "error-message": " Card not eligible " })).toMatch(/^This card cannot receive a payout: Card not eligible\. .*no payout request was sent/)
    expect(ineligibleWords(undefined)).toMatch(/^This card cannot receive a payout\. PAN eligibility said no/)
  })
})
