/**
 * Which cards the sandbox treats as unable to receive a money transfer: the answer of pan-eligibility/send, and the
 * outcome of a payout or transfer to such a card (declined, as a real issuer would refuse the credit).
 *
 * By default one test card is ineligible, INELIGIBLE_TEST_PAN (4000 0000 0000 0002, Luhn-valid), and so is any card
 * reference made from it; steering marks more (a card reference, or a BIN + last four) eligible or not. Only BIN and
 * last four are kept, never the number.
 */
import type { CardSummary } from "./cards"
import type { Store } from "./state"

export const INELIGIBLE_TEST_PAN = "4000000000000002"

const key = (bin: string, lastFour: string) => `${bin}|${lastFour}`
export const DEFAULT_INELIGIBLE = key(INELIGIBLE_TEST_PAN.slice(0, 6), INELIGIBLE_TEST_PAN.slice(-4))

/** Whether a card (by its summary, or the card reference it is reached through) may receive money. */
export function isEligible(store: Store, card: CardSummary | undefined, cardRefId?: string): boolean {
  if (cardRefId && store.cardRefEligibility.has(cardRefId)) return store.cardRefEligibility.get(cardRefId) as boolean
  if (!card) return true
  const k = key(card.bin, card.lastFour)
  if (store.cardEligibility.has(k)) return store.cardEligibility.get(k) as boolean
  return k !== DEFAULT_INELIGIBLE
}

/** Steering: a card reference, or a card by BIN + last four, eligible or not from now on. */
export function setEligibility(store: Store, target: { cardRefId?: string; bin?: string; lastFour?: string }, eligible: boolean): void {
  if (target.cardRefId) {
    if (!store.cardRefs.has(target.cardRefId)) throw new Error(`unknown card reference ${target.cardRefId}`)
    store.cardRefEligibility.set(target.cardRefId, eligible)
    return
  }
  if (!target.bin || !/^\d{6}$/.test(target.bin) || !target.lastFour || !/^\d{4}$/.test(target.lastFour)) {
    throw new Error("name a card: cardRefId, or bin (6 digits) and lastFour (4 digits)")
  }
  store.cardEligibility.set(key(target.bin, target.lastFour), eligible)
}
