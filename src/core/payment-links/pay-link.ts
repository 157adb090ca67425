/**
 * Paying a payment link: start the payment of an order's unpaid collection, or resume the one already started, so
 * that a double submit, a second tab or a shopper coming back never makes a second intent.
 *
 * Everything runs under the link's lock (LOCK_KEYS.paymentLink: one start at a time per link); the new session is
 * made, and a saved card charged, under the collection's lock (core/locks/collection-lock.ts), the key the guard in
 * front of Medusa's own payment-session routes, the store's card routes and settle-session take:
 * 1. the collection and its order are read again (read-link.ts) and judged (link-state.ts): paid, canceled, not an
 *    order's, nothing owed → refused in words, nothing sent;
 * 2. every open session of ours that reached the gateway is settled first (core/checkout/settle-session.ts: STATUS
 *    through the provider; approved → its Payment, booked on the order) — so a page paid a moment ago answers "paid"
 *    instead of getting a second page; one whose STATUS cannot be had keeps the link busy (never a new id while maybe);
 * 3. resume.ts picks the session to resume (same provider, same amount, still open) or says a new one is needed;
 * 4. a new session goes through Medusa's createPaymentSessionsWorkflow with the payer taken from the order (a guest
 *    order's link works for whoever holds it; no customer context is passed, so no saved card of the order's customer
 *    is within reach), or, for a saved card, with the logged-in customer who owns the order and the card.
 * A saved card is charged through the provider's one-charge-per-collection intent (core/saved-cards) and the session
 * settled at once, so the Payment is booked on the order before the answer.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import { toMinor } from "../checkout/amounts"
import { settleSession } from "../checkout/settle-session"
import { gatewayConfigFor } from "../connection/providers"
import { LOCK_KEYS } from "../locks/lock-keys"
import { lockKeyOfCollection } from "../locks/collection-lock"
import { linkState, refusalMessage, type LinkState } from "./link-state"
import { couldBeCollectionId, readLink, type LinkAddress, type LinkRecords } from "./read-link"
import { reachedGateway, resumeDecision, type LinkSession } from "./resume"
import { linkView, type PaymentLinkView } from "./link-view"
import { PAYMENT_LINK_KEY, type PaymentLinkOrigin } from "./return-target"

const LOCK_TIMEOUT_S = 60
const IN_PROGRESS = "A payment of this link is in progress and its outcome is not known yet; nothing new was started. Try again in a minute."
const OPEN = new Set(["pending", "requires_more", "pending_authorization"])

export interface PayLinkInput {
  collectionId: string
  /** the link's `order_id`: when given it must be the collection's order */
  orderId?: string
  providerId?: string
  origin: PaymentLinkOrigin
  /** the logged-in customer (store route), for a saved card */
  customerId?: string
  cardId?: string
  cvv?: string
  ip?: string
}

export type PayLinkResult =
  | { kind: "redirect"; url: string; sessionId: string; resumed: boolean; view: PaymentLinkView }
  | { kind: "paid"; view: PaymentLinkView }
  | { kind: "declined"; message: string; view: PaymentLinkView }
  | { kind: "pending"; message: string; view: PaymentLinkView }
  | { kind: "refused"; state: LinkState["state"]; message: string; view: PaymentLinkView }

/** The link as its holder may see it now, after asking STATUS for open sessions that reached the gateway. */
export async function refreshLink(container: MedusaContainer, collectionId: string, orderId?: string): Promise<PaymentLinkView> {
  let records = await readFor(container, collectionId, orderId)
  if (linkState(records).state === "payable" && (await settleOpen(container, records)).changed) {
    records = await readFor(container, collectionId, orderId)
  }
  return linkView(records, collectionId)
}

export async function payLink(container: MedusaContainer, input: PayLinkInput): Promise<PayLinkResult> {
  if (!couldBeCollectionId(input.collectionId)) return refused({ providerIds: [] }, input.collectionId, { state: "expired", why: "not_found" })
  return container.resolve(Modules.LOCKING).execute(LOCK_KEYS.paymentLink(input.collectionId), () => payUnderLock(container, input), {
    timeout: LOCK_TIMEOUT_S,
  })
}

async function payUnderLock(container: MedusaContainer, input: PayLinkInput): Promise<PayLinkResult> {
  let records = await readFor(container, input.collectionId, input.orderId)
  let state = linkState(records)
  if (state.state !== "payable") return refused(records, input.collectionId, state)

  const settled = await settleOpen(container, records)
  if (settled.changed) {
    records = await readFor(container, input.collectionId, input.orderId)
    state = linkState(records)
    if (state.state !== "payable") return paidOrRefused(records, input.collectionId, state)
  }
  const providerId = chooseProvider(container, records, input)
  const sessions = records.collection!.payment_sessions ?? []
  const decision = resumeDecision(sessions, { providerId, cardId: input.cardId }, state.amountMinor, state.currency)
  const view = () => linkView(records, input.collectionId)

  if (decision.kind === "busy" || (decision.kind === "new" && settled.unknown.length)) {
    return {
      kind: "pending",
      message: IN_PROGRESS,
      view: view(),
    }
  }
  if (decision.kind === "reuse") {
    return { kind: "redirect", url: decision.redirectUrl, sessionId: decision.sessionId, resumed: true, view: view() }
  }
  if (input.cardId) {
    const sessionId = decision.kind === "reuse_saved_card" ? decision.sessionId : await newSession(container, records, providerId, input, true)
    return chargeSavedCard(container, input, sessionId)
  }
  const sessionId = await newSession(container, records, providerId, input, false)
  const after = await readFor(container, input.collectionId, input.orderId)
  const created = after.collection?.payment_sessions?.find((s) => s.id === sessionId)
  const url = created?.data?.redirectUrl
  if (typeof url !== "string" || !url) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The payment page could not be opened; nothing was charged, please try again")
  }
  return { kind: "redirect", url, sessionId, resumed: false, view: linkView(after, input.collectionId) }
}

async function readFor(container: MedusaContainer, collectionId: string, orderId?: string): Promise<LinkRecords> {
  const records = await readLink(container, collectionId)
  // a link whose order_id names another order is not this collection's link
  if (orderId && records.order && records.order.id !== orderId) return { providerIds: [] }
  return records
}

function refused(records: LinkRecords, collectionId: string, state: Exclude<LinkState, { state: "payable" }>): PayLinkResult {
  return { kind: "refused", state: state.state, message: refusalMessage(state), view: linkView(records, collectionId, state) }
}

function paidOrRefused(records: LinkRecords, collectionId: string, state: Exclude<LinkState, { state: "payable" }>): PayLinkResult {
  return state.state === "paid" ? { kind: "paid", view: linkView(records, collectionId, state) } : refused(records, collectionId, state)
}

/** STATUS for every open session of ours that reached the gateway: `changed` when one was settled (paid or declined). */
async function settleOpen(container: MedusaContainer, records: LinkRecords): Promise<{ changed: boolean; unknown: string[] }> {
  let changed = false
  const unknown: string[] = []
  for (const s of records.collection?.payment_sessions ?? []) {
    if (!OPEN.has(s.status) || !reachedGateway(s)) continue
    try {
      const result = await settleSession(container, s.id)
      if (result.outcome === "authorized" || result.outcome === "failed") changed = true
      else if (s.data?.gatewayStatus === "unknown" || result.mismatch) unknown.push(s.id)
    } catch {
      unknown.push(s.id)
    }
  }
  return { changed, unknown }
}

/**
 * The registration to pay with: the one asked for (it must be a PaynetEasy provider of the order's region); else the
 * hosted-page registration the order was last paid with (the same capture mode as its checkout), else the region's
 * first hosted-page registration by id (the plugin's page has no card form). A saved card: that order's registration
 * or the region's first.
 */
function chooseProvider(container: MedusaContainer, records: LinkRecords, input: PayLinkInput): string {
  const offered = records.providerIds
  if (input.providerId) {
    if (!offered.includes(input.providerId)) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `provider_id: ${input.providerId} is not a PaynetEasy payment provider of this order's region`)
    }
    return input.providerId
  }
  const paidWith = (records.order?.payment_collections ?? [])
    .flatMap((c) => c?.payments ?? [])
    .filter((p): p is { provider_id: string; created_at?: string | Date | null } => !!p && offered.includes(p.provider_id))
    .sort((a, b) => new Date(b.created_at ?? 0).getTime() - new Date(a.created_at ?? 0).getTime())
    .map((p) => p.provider_id)
  const candidates = [...new Set([...paidWith, ...[...offered].sort()])]
  const chosen = input.cardId ? candidates[0] : candidates.find((id) => gatewayConfigFor(container, id).flow === "hosted")
  if (!chosen) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "No PaynetEasy payment page is enabled for this order's region")
  return chosen
}

/** The payer from the order (email, billing address, else shipping address), as a storefront would send it. */
function payerOfOrder(records: LinkRecords, ip?: string) {
  const o = records.order!
  const a: LinkAddress = o.billing_address ?? o.shipping_address ?? {}
  const s: LinkAddress = o.shipping_address ?? {}
  const pick = (...v: Array<string | null | undefined>) => v.find((x) => typeof x === "string" && x.trim() !== "") ?? undefined
  const payer = {
    email: pick(o.email), first_name: pick(a.first_name, s.first_name), last_name: pick(a.last_name, s.last_name),
    phone: pick(a.phone, s.phone), address_1: pick(a.address_1, s.address_1), city: pick(a.city, s.city),
    postal_code: pick(a.postal_code, s.postal_code), country_code: pick(a.country_code, s.country_code), province: pick(a.province, s.province),
    ip,
  }
  return Object.fromEntries(Object.entries(payer).filter(([, v]) => v !== undefined))
}

async function newSession(container: MedusaContainer, records: LinkRecords, providerId: string, input: PayLinkInput, savedCard: boolean): Promise<string> {
  const order = records.order!
  if (savedCard) {
    // a saved card only for its owner: the logged-in customer must be the order's customer (and own the card: the
    // provider checks that again when it records the session)
    if (!input.customerId || input.customerId !== order.customer_id) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `card_id: saved card ${input.cardId} of this order's customer was not found`)
    }
  }
  const data: Record<string, unknown> = {
    payer: payerOfOrder(records, input.ip),
    [PAYMENT_LINK_KEY]: input.origin,
    ...(savedCard ? { card_id: input.cardId } : {}),
  }
  const collectionId = records.collection!.id
  // Medusa's workflow deletes the collection's other sessions: under the collection's lock, so that a card charge on
  // one of them (the store's card route takes the same key) has either finished, and is seen here, or waits
  return container.resolve(Modules.LOCKING).execute(
    await lockKeyOfCollection(container, collectionId),
    async () => {
      const now = await readFor(container, input.collectionId, input.orderId)
      const state = linkState(now)
      if (state.state !== "payable") throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusalMessage(state))
      const settledBefore = new Set((records.collection?.payment_sessions ?? []).filter(reachedGateway).map((s) => s.id))
      if ((now.collection?.payment_sessions ?? []).some((s) => reachedGateway(s) && !settledBefore.has(s.id))) {
        throw new MedusaError(MedusaError.Types.CONFLICT, IN_PROGRESS)
      }
      // the order owes less than the collection asks (link-state.ts): the collection is set to what is owed first, as
      // Medusa's own order workflow updates an unpaid collection, since its session workflow charges the collection's amount
      if (state.amountMinor < toMinor(now.collection!.amount as string, state.currency)) {
        await container.resolve(Modules.PAYMENT).updatePaymentCollections(collectionId, { amount: state.amount })
      }
      const { result } = await createPaymentSessionsWorkflow(container).run({
        input: {
          payment_collection_id: collectionId,
          provider_id: providerId,
          ...(savedCard ? { customer_id: input.customerId } : {}),
          data,
        },
      })
      return (result as { id: string }).id
    },
    { timeout: LOCK_TIMEOUT_S }
  )
}

async function chargeSavedCard(container: MedusaContainer, input: PayLinkInput, sessionId: string): Promise<PayLinkResult> {
  const payments = container.resolve(Modules.PAYMENT)
  // the collection's lock (what settle-session and the store's saved-card route take)
  await container.resolve(Modules.LOCKING).execute(
    await lockKeyOfCollection(container, input.collectionId),
    async () => {
      const session = await payments.retrievePaymentSession(sessionId, { select: ["id", "data", "amount", "raw_amount", "currency_code", "status"] } as any)
      if (session.status === "authorized" || session.status === "captured") return
      await payments.updatePaymentSession({
        id: sessionId,
        // the CVV exists only in this call: the provider takes it into the rebill request, Medusa stores its output
        data: { ...(session.data ?? {}), pay_saved_card: { cvv: input.cvv ?? null } },
        amount: ((session as any).raw_amount ?? session.amount) as any,
        currency_code: session.currency_code,
      })
    },
    { timeout: LOCK_TIMEOUT_S }
  )
  const settled = await settleSession(container, sessionId)
  const records = await readFor(container, input.collectionId, input.orderId)
  const view = linkView(records, input.collectionId)
  if (settled.outcome === "authorized") return { kind: "paid", view }
  if (settled.outcome === "failed") return { kind: "declined", message: settled.detail.replace(/^gateway: /, ""), view }
  return { kind: "pending", message: "The payment is being confirmed by the bank; please do not pay again.", view }
}

export type { LinkSession }
