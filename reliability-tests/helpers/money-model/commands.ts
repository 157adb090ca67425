/**
 * One fast-check command per public action the money model draws: what a guest or a logged-in customer can do with
 * Medusa's Store API and the plugin's store routes, what an admin can do with the Admin API, what the gateway does on
 * its own (callbacks: delivered, lost, repeated, held back and sent out of order; faults on its next reply), and the
 * plugin's reconciliation tick. Each runs over real HTTP against the app and the sandbox, writes what it was answered
 * to the world's log, and ends with the oracle's step check (oracle.ts `stepProblems` and the card-data scan): a
 * problem throws, so fast-check shrinks the sequence to the shortest one that still shows it.
 *
 * The model is what the sequence has learned from the answers (world.ts `Checkout`): a command's `check` asks only
 * for what it needs to act on (a checkout, an order, a direct session), so a shrunk sequence stays runnable.
 */
import fc from "fast-check"
import { completeChallenge, payHostedPage } from "../../../src/sandbox"
import { FAULT_KINDS } from "../../../src/sandbox/faults"
import { reconcileTick } from "../../../integration-tests/helpers/reconcile-tick"
import { PROVIDER_IDS } from "../../../integration-tests/helpers/provider-options"
import { payerFromCart } from "../../../integration-tests/helpers/store"
import { backendUrl } from "../../../integration-tests/helpers/backend-url"
import { toMinorUnits } from "../../../src/gateway/money"
import { cardDataRows, describe, readLedgers, stepProblems } from "./oracle"
import { call, directCard, note, headersOf, hostedCard, newCart, type Checkout, type CheckoutKind, type World } from "./world"

export interface Model {
  checkouts: Checkout[]
  /** Steps run so far in this sequence, and how many it may run (more are drawn than run: some find nothing to act on). */
  steps: number
  maxSteps: number
}
type Cmd = fc.AsyncCommand<Model, World>

/** Once, again right after, or twice at the same moment (a double click, two tabs, two admins). */
export type Submit = "once" | "again" | "at-once"
const submit = fc.constantFrom<Submit>("once", "once", "again", "at-once")

async function submitted<T>(how: Submit, send: () => Promise<T>): Promise<T[]> {
  if (how === "at-once") return Promise.all([send(), send()])
  const first = await send()
  return how === "again" ? [first, await send()] : [first]
}

/** Figures the spec prints: how often each command ran and each fault was armed. */
export const drawn: Record<string, number> = {}
/** Wall time spent in each command (its action and the step check), ms. */
export const spent: Record<string, number> = {}
const count = (name: string) => (drawn[name] = (drawn[name] ?? 0) + 1)

/** The oracle's step check: every rule that holds at every moment; a problem fails the sequence here. */
export async function stepCheck(world: World): Promise<void> {
  const ledgers = await readLedgers(world, world.checkouts)
  const problems = [...world.expectations.splice(0), ...stepProblems(ledgers), ...(await cardDataRows(world))]
  if (problems.length) throw new ModelDivergence(problems, describe(ledgers), world.log)
}

export class ModelDivergence extends Error {
  constructor(readonly problems: string[], readonly ledgers: string[], readonly log: string[]) {
    super(`${problems.join("\n")}\n-- ledgers:\n${ledgers.join("\n")}\n-- requests:\n${log.join("\n")}`)
  }
}

/** A sandbox fault on the gateway request a step itself sends (or on the STATUS that follows it up). */
export interface FaultSpec {
  kind: string
  ms: number
  variant: string
  onStatus: boolean
}
const faultText = (f: Pick<FaultSpec, "kind" | "ms" | "variant">) =>
  `${f.kind}${f.kind === "latency" || f.kind === "slow-processing" ? ` ${f.ms} ms` : ""}${f.kind === "unreadable-200" ? ` ${f.variant}` : ""}`
function arm(w: World, f: Pick<FaultSpec, "kind" | "ms" | "variant">, operation: string) {
  count(`fault ${f.kind}`)
  const rule: any = { kind: f.kind, operation, times: 1 }
  if (f.kind === "latency" || f.kind === "slow-processing") rule.ms = f.ms
  if (f.kind === "unreadable-200") rule.variant = f.variant
  w.sandbox().control.addFault(rule)
}

abstract class Step implements Cmd {
  /** A fault on this step's own gateway request (`operation`), drawn with the step. */
  under: FaultSpec | null = null
  abstract applies(m: Readonly<Model>): boolean
  abstract act(m: Model, w: World): Promise<void>
  abstract describe(): string
  /** The gateway operation this step's action sends (undefined: none of its own). */
  operation(_m: Readonly<Model>): string | undefined {
    return undefined
  }
  with(fault: FaultSpec | null): this {
    this.under = fault
    return this
  }
  toString(): string {
    return `${this.describe()}${this.under ? ` under ${faultText(this.under)}${this.under.onStatus ? " on its STATUS" : ""}` : ""}`
  }
  check(m: Readonly<Model>): boolean {
    return m.steps < m.maxSteps && this.applies(m)
  }
  async run(m: Model, w: World): Promise<void> {
    m.steps++
    count(this.constructor.name)
    note(w, this.toString())
    const operation = this.under && (this.under.onStatus ? "STATUS" : this.operation(m))
    if (this.under && operation) arm(w, this.under, operation)
    else if (this.under) note(w, "  (no gateway request of its own: no fault armed)")
    const t0 = Date.now()
    try {
      await this.act(m, w)
      await stepCheck(w)
    } finally {
      const key = `${this.constructor.name}${this instanceof Checkout_ ? `:${this.kind}` : ""}${this.under ? `+${this.under.kind}` : ""}`
      spent[key] = (spent[key] ?? 0) + Date.now() - t0
    }
  }
}

/** Picks the `pick`-th (modulo) of the checkouts that satisfy `which`. */
const target = (m: Readonly<Model>, pick: number, which: (c: Checkout) => boolean): Checkout | undefined => {
  const list = m.checkouts.filter(which)
  return list.length ? list[pick % list.length] : undefined
}
const anyCheckout = () => true
const ordered = (c: Checkout) => !!c.orderId
const isDirect = (c: Checkout) => c.providerId === PROVIDER_IDS.direct
const hasPage = (c: Checkout) => c.pages.length > 0
const isSavedCard = (c: Checkout) => c.kind === "saved-card"
const hasCart = (c: Checkout) => c.kind !== "link"
const isLink = (c: Checkout) => c.kind === "link"
/** An order's first checkout (the one with the cart): what an admin edits. */
const editable = (c: Checkout) => !!c.orderId && hasCart(c)

/** The gateway operation a checkout of each kind sends first (the form registration, the card, the saved card's rebill). */
const CHECKOUT_OPERATION: Record<CheckoutKind, string> = {
  hosted: "PREAUTHFORM", auto: "SALEFORM", direct: "PREAUTH", "direct-3ds": "PREAUTH", "saved-card": "REBILL", "off-session": "REBILL",
  link: "SALEFORM",
}

const PROVIDER_OF: Record<CheckoutKind, string> = {
  hosted: PROVIDER_IDS.hosted, auto: PROVIDER_IDS.auto, direct: PROVIDER_IDS.direct, "direct-3ds": PROVIDER_IDS.direct,
  "saved-card": PROVIDER_IDS.hosted, "off-session": PROVIDER_IDS.hosted, link: PROVIDER_IDS.auto,
}

function remember(c: Checkout, answer: { status: number; data: any }) {
  for (const s of answer.data?.payment_collection?.payment_sessions ?? []) {
    if (!c.sessionIds.includes(s.id)) c.sessionIds.push(s.id)
    c.session = s
    c.providerId = s.provider_id
    if (s.data?.redirectUrl && !c.pages.includes(s.data.redirectUrl)) c.pages.push(s.data.redirectUrl)
  }
  if (answer.data?.payment_session?.id) c.session = answer.data.payment_session
}

async function payPage(w: World, c: Checkout, url: string, followReturn: boolean) {
  const paid = await payHostedPage(url, hostedCard(), { followReturn }).then(
    (r) => `paid (${r.params.status})${r.returnResponse ? `, return → ${r.returnResponse.status}` : ""}`,
    (e) => `not paid: ${String(e.message).slice(0, 100)}`,
  )
  note(w, `  shopper pays ${c.label}'s page: ${paid}`)
}

async function postCard(w: World, c: Checkout, cvv: string) {
  const res = await call(w, `card ${cvv} on ${c.session?.id}`, w.api.post(`/store/payneteasy/payment-sessions/${c.session?.id}/card`, directCard(cvv), { headers: headersOf(w, c.customer) }))
  remember(c, res)
  const next = res.data?.payment_session?.data?.nextAction
  return { res, next }
}

async function paySavedCard(w: World, c: Checkout, cvv?: string) {
  const res = await call(w, `saved card${cvv ? " with CVV" : ""} on ${c.session?.id}`,
    w.api.post(`/store/payneteasy/payment-sessions/${c.session?.id}/saved-card`, cvv ? { cvv2: cvv } : {}, { headers: w.customer.headers }))
  remember(c, res)
  return res
}

async function complete(w: World, c: Checkout) {
  const res = await call(w, `complete ${c.label}`, w.api.post(`/store/carts/${c.cartId}/complete`, {}, { headers: headersOf(w, c.customer) }))
  if (res.data?.type === "order") c.orderId = res.data.order.id
  return res
}

/** A checkout from an empty cart: the cart, its collection, a session of the kind's provider, the shopper's payment. */
export class Checkout_ extends Step {
  constructor(readonly kind: CheckoutKind, readonly cvv: string, readonly completeIt: boolean, readonly followReturn: boolean) { super() }
  applies = () => true
  operation = () => CHECKOUT_OPERATION[this.kind]
  describe = () => `checkout ${this.kind}${this.kind.startsWith("direct") || this.kind === "saved-card" ? ` cvv ${this.cvv}` : ""}${this.completeIt ? " + complete" : ""}${this.followReturn ? " + return" : ""}`
  async act(m: Model, w: World) {
    const customer = this.kind === "saved-card" || this.kind === "off-session"
    const cart = await newCart(w, customer)
    const headers = { headers: headersOf(w, customer) }
    const collection = (await w.api.post("/store/payment-collections", { cart_id: cart.id }, headers)).data.payment_collection
    const c: Checkout = {
      label: `#${m.checkouts.length + 1} ${this.kind}`, kind: this.kind, customer, cartId: cart.id, collectionId: collection.id,
      providerId: PROVIDER_OF[this.kind], sessionIds: [], pages: [],
    }
    m.checkouts.push(c)
    const data: Record<string, unknown> = { payer: payerFromCart(cart) }
    if (this.kind === "saved-card") data.card_id = w.savedCardId
    if (this.kind === "off-session") Object.assign(data, { payment_method: w.savedCardId, off_session: true })
    const ses = await call(w, `session ${c.providerId} for ${c.label}`, w.api.post(`/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: c.providerId, data }, headers))
    remember(c, ses)
    if (ses.status !== 200) return
    if (this.kind === "hosted" || this.kind === "auto") {
      if (c.pages[0]) await payPage(w, c, c.pages[0], this.followReturn)
    } else if (this.kind === "direct" || this.kind === "direct-3ds") {
      const { next } = await postCard(w, c, this.kind === "direct-3ds" ? "321" : this.cvv)
      if (next?.url) {
        const done = await completeChallenge(next.url, this.cvv === "fail" ? "fail" : "pass", { followReturn: this.followReturn }).then((r) => r.params.status, (e) => `failed: ${e.message}`)
        note(w, `  3-D Secure challenge: ${done}`)
      }
    } else if (this.kind === "saved-card") {
      await paySavedCard(w, c, this.cvv === "none" ? undefined : this.cvv)
    }
    if (this.completeIt) await complete(w, c)
  }
}

export class Complete extends Step {
  constructor(readonly pick: number, readonly how: Submit) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, hasCart)
  operation = (m: Readonly<Model>) => (target(m, this.pick, hasCart)?.kind === "off-session" ? "REBILL" : "STATUS")
  describe = () => `complete cart (pick ${this.pick}, ${this.how})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, hasCart)!
    await submitted(this.how, () => complete(w, c))
  }
}

/**
 * POST /store/payment-collections/:id/payment-sessions on the checkout's collection, as a second tab or a script with
 * the publishable key would. On a collection that is authorized, captured or completed it must be refused (409) and
 * change nothing (issue 49, defect 1); on an open one it replaces the session (the old one's money is given back).
 */
export class NewSession extends Step {
  constructor(readonly pick: number, readonly provider: keyof typeof PROVIDER_IDS, readonly how: Submit) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, anyCheckout)
  describe = () => `new ${this.provider} session (pick ${this.pick}, ${this.how})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, anyCheckout)!
    const [collection] = await w.sql(`select status from payment_collection where id = ?`, [c.collectionId])
    const paid = ["authorized", "partially_authorized", "captured", "partially_captured", "completed"].includes(collection?.status)
    const cart = (await w.api.get(`/store/carts/${c.cartId}`, { headers: headersOf(w, c.customer) }).catch(() => undefined))?.data?.cart
    const data = { payer: cart ? payerFromCart(cart) : { email: "guest@payneteasy.test" } }
    const answers = await submitted(this.how, async () => {
      const res = await call(w, `new session on ${c.label} (collection ${collection?.status})`,
        w.api.post(`/store/payment-collections/${c.collectionId}/payment-sessions`, { provider_id: PROVIDER_IDS[this.provider], data }, { headers: headersOf(w, c.customer) }))
      remember(c, res)
      return res
    })
    if (paid && answers.some((a) => a.status !== 409)) {
      w.expectations.push(`${c.label}: a new payment session on a collection already ${collection.status} answered ${answers.map((a) => a.status).join(", ")}, not 409`)
    }
  }
}

/** The shopper pays a hosted page: the newest session's, or (a stale tab) the first one's. */
export class PayPage extends Step {
  constructor(readonly pick: number, readonly stale: boolean, readonly followReturn: boolean) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, hasPage)
  describe = () => `pay ${this.stale ? "the first" : "the newest"} hosted page (pick ${this.pick}${this.followReturn ? ", return" : ""})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, hasPage)!
    await payPage(w, c, this.stale ? c.pages[0] : c.pages[c.pages.length - 1], this.followReturn)
  }
}

/** The direct flow's card step on the checkout's session again (a double submit, or another card after a decline). */
export class CardAgain extends Step {
  constructor(readonly pick: number, readonly cvv: string, readonly how: Submit) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, isDirect)
  operation = () => "PREAUTH"
  describe = () => `card ${this.cvv} again (pick ${this.pick}, ${this.how})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, isDirect)!
    const results = await submitted(this.how, () => postCard(w, c, this.cvv))
    const next = results.find((r) => r.next?.url)?.next
    if (next) await completeChallenge(next.url, "pass").catch(() => undefined)
  }
}

/** The saved-card route again on a saved-card checkout (the pay button twice, two tabs). */
export class SavedCardAgain extends Step {
  constructor(readonly pick: number, readonly withCvv: boolean, readonly how: Submit) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, isSavedCard)
  operation = () => "REBILL"
  describe = () => `saved card again${this.withCvv ? " with CVV" : ""} (pick ${this.pick}, ${this.how})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, isSavedCard)!
    await submitted(this.how, () => paySavedCard(w, c, this.withCvv ? "123" : undefined))
  }
}

async function paymentOf(w: World, c: Checkout) {
  const [p] = await w.sql(`select p.id, p.raw_amount->>'value' as amount,
      (select coalesce(sum((raw_amount->>'value')::numeric), 0) from capture where payment_id = p.id and deleted_at is null)::text as captured,
      (select coalesce(sum((raw_amount->>'value')::numeric), 0) from refund where payment_id = p.id and deleted_at is null)::text as refunded
    from payment p where p.payment_collection_id = ? and p.canceled_at is null and p.deleted_at is null order by p.created_at desc limit 1`, [c.collectionId])
  return p as { id: string; amount: string; captured: string; refunded: string } | undefined
}
const major = (minorUnits: bigint) => Number(minorUnits) / 100
const minor = (v: string) => toMinorUnits(String(Number(v).toFixed(2)), "EUR")

/** The admin captures the order's payment: all of it, or `percent` of what is left. */
export class Capture extends Step {
  constructor(readonly pick: number, readonly percent: number | "all", readonly how: Submit) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, ordered)
  operation = () => "CAPTURE"
  describe = () => `admin capture ${this.percent === "all" ? "all" : `${this.percent}%`} (pick ${this.pick}, ${this.how})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, ordered)!
    const p = await paymentOf(w, c)
    if (!p) return void note(w, `  ${c.label} has no payment to capture`)
    const left = minor(p.amount) - minor(p.captured)
    const part = this.percent === "all" ? undefined : left * BigInt(this.percent) / 100n || 1n
    await submitted(this.how, () => call(w, `capture ${part === undefined ? "all" : major(part)} of ${c.label}`,
      w.api.post(`/admin/payments/${p.id}/capture`, part === undefined ? {} : { amount: major(part) }, w.admin)))
  }
}

/** The admin refunds `percent` of what was captured and not refunded yet. */
export class Refund extends Step {
  constructor(readonly pick: number, readonly percent: number, readonly how: Submit) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, ordered)
  operation = () => "RETURN"
  describe = () => `admin refund ${this.percent}% (pick ${this.pick}, ${this.how})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, ordered)!
    const p = await paymentOf(w, c)
    if (!p) return void note(w, `  ${c.label} has no payment to refund`)
    const left = minor(p.captured) - minor(p.refunded)
    const part = left * BigInt(this.percent) / 100n || 1n
    await submitted(this.how, () => call(w, `refund ${major(part)} of ${c.label}`, w.api.post(`/admin/payments/${p.id}/refund`, { amount: major(part) }, w.admin)))
  }
}

/** The admin cancels the order (the payment is canceled: the gateway's VOID). */
export class Cancel extends Step {
  constructor(readonly pick: number, readonly how: Submit) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, ordered)
  operation = () => "VOID"
  describe = () => `admin cancel order (pick ${this.pick}, ${this.how})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, ordered)!
    await submitted(this.how, () => call(w, `cancel ${c.label}'s order`, w.api.post(`/admin/orders/${c.orderId}/cancel`, {}, w.admin)))
  }
}

/**
 * The order's collections the model does not know yet (an order edit's difference; a rebill's own collection), each
 * a "link" checkout of its own: the oracle checks it like any other, and the order's summary against all of them.
 */
async function discoverCollections(m: Model, w: World, c: Checkout) {
  const rows = await w.sql(`select payment_collection_id as id from order_payment_collection where order_id = ? and deleted_at is null order by created_at`, [c.orderId])
  for (const { id } of rows) {
    if (m.checkouts.some((x) => x.collectionId === id)) continue
    const link: Checkout = {
      label: `#${m.checkouts.length + 1} link of ${c.label.split(" ")[0]}`, kind: "link", customer: c.customer, cartId: "", collectionId: id,
      providerId: PROVIDER_IDS.auto, sessionIds: [], pages: [], orderId: c.orderId,
    }
    m.checkouts.push(link)
    note(w, `  the order has a new collection: ${link.label}`)
  }
}

/**
 * The admin edits the order through Medusa's order-edit routes: one more unit, requested and confirmed. Medusa leaves
 * the difference in an unpaid collection (a new one, or the unpaid one it already had, grown), and on an order whose
 * payment is only authorized it cancels that collection (the provider's VOID) and asks for the whole total anew.
 */
export class EditOrder extends Step {
  constructor(readonly pick: number) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, editable)
  operation = () => "VOID"
  describe = () => `admin order edit: one more unit (pick ${this.pick})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, editable)!
    const orderId = c.orderId!
    const steps: Array<[string, string, unknown]> = [
      ["begin", `/admin/order-edits`, { order_id: orderId }],
      ["add one unit", `/admin/order-edits/${orderId}/items`, { items: [{ variant_id: w.store.variantId, quantity: 1 }] }],
      ["request", `/admin/order-edits/${orderId}/request`, {}],
      ["confirm", `/admin/order-edits/${orderId}/confirm`, {}],
    ]
    for (const [what, path, body] of steps) {
      const res = await call(w, `order edit of ${c.label}: ${what}`, w.api.post(path, body, w.admin))
      if (res.status >= 400 || res.status === 0) {
        // an edit left open would refuse every later one: it is canceled (as the admin's "cancel edit" does)
        if (what !== "begin") await call(w, `order edit of ${c.label}: cancel`, w.api.delete(`/admin/order-edits/${orderId}`, w.admin))
        break
      }
    }
    await discoverCollections(m, w, c)
  }
}

/**
 * The shopper pays a link (an order's later collection): on the plugin's own page (its Pay button, a form post, then
 * the hosted page), or through Medusa's store route as a storefront's page would (a session, then the hosted page).
 */
export class PayLink extends Step {
  constructor(readonly pick: number, readonly via: "plugin-page" | "store-route", readonly followReturn: boolean) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, isLink)
  operation = () => "SALEFORM"
  describe = () => `pay the link on ${this.via === "plugin-page" ? "the plugin's page" : "a store-route session"} (pick ${this.pick}${this.followReturn ? ", return" : ""})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, isLink)!
    let page: string | undefined
    if (this.via === "plugin-page") {
      const url = `${backendUrl()}/payneteasy/payment-collection/${c.collectionId}?order_id=${c.orderId}`
      const res = await fetch(url, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "lang=en" })
        .then(async (r) => ({ status: r.status, location: r.headers.get("location"), text: await r.text() }), (e) => ({ status: 0, location: null, text: String(e.message) }))
      note(w, `  Pay on the plugin's page of ${c.label} → ${res.status}${res.status === 303 ? "" : ` ${res.text.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 100)}`}`)
      if (res.status === 303 && res.location) page = res.location
    } else {
      const res = await call(w, `session ${PROVIDER_IDS.auto} for ${c.label}`, w.api.post(`/store/payment-collections/${c.collectionId}/payment-sessions`,
        { provider_id: PROVIDER_IDS.auto, data: { payer: { email: "guest@payneteasy.test", phone: "+49307777777", address_1: "7 Model St", city: "Berlin", postal_code: "10117", country_code: w.store.countryCode } } },
        { headers: headersOf(w, c.customer) }))
      remember(c, res)
      page = res.status === 200 ? c.session?.data?.redirectUrl : undefined
    }
    if (!page) return
    if (!c.pages.includes(page)) c.pages.push(page)
    await payPage(w, c, page, this.followReturn)
  }
}

/** The admin charges the customer's saved card for what the order still owes (the plugin's rebill route). */
export class AdminRebill extends Step {
  constructor(readonly pick: number, readonly how: Submit) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, (c) => !!c.orderId && c.customer)
  operation = () => "REBILL"
  describe = () => `admin rebill of the saved card (pick ${this.pick}, ${this.how})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, (x) => !!x.orderId && x.customer)!
    await submitted(this.how, () => call(w, `admin rebill for ${c.label}'s order`, w.api.post(`/admin/payneteasy/orders/${c.orderId}/rebill`, { card_id: w.savedCardId }, w.admin)))
    await discoverCollections(m, w, c)
  }
}

/** The gateway's next request of `operation` meets a fault (one-shot): the next command that sends one gets it. */
export class GatewayFault extends Step {
  constructor(readonly kind: string, readonly target: string, readonly ms: number, readonly variant: string) { super() }
  applies = () => true
  describe = () => `fault ${faultText(this)} on the next ${this.target}`
  async act(_m: Model, w: World) {
    arm(w, this, this.target)
  }
}

/** The gateway's next callback is lost, sent twice, held back (sent after the next one) or delayed. */
export class CallbackFault extends Step {
  constructor(readonly kind: "callback-off" | "callback-duplicate" | "callback-out-of-order" | "callback-delay") { super() }
  applies = () => true
  describe = () => `fault ${this.kind} on the next callback`
  async act(_m: Model, w: World) {
    count(`fault ${this.kind}`)
    const rule: any = { kind: this.kind, times: 1 }
    if (this.kind === "callback-delay") rule.ms = 300
    if (this.kind === "callback-out-of-order") rule.holdMs = 2000
    w.sandbox().control.addFault(rule)
  }
}

/** A callback the gateway sent (or lost) for the checkout, delivered again: the first one (stale) or the latest. */
export class Redeliver extends Step {
  constructor(readonly pick: number, readonly which: "first" | "latest") { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, anyCheckout)
  describe = () => `deliver the ${this.which} callback again (pick ${this.pick})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, anyCheckout)!
    const ids = new Set(c.sessionIds)
    const attempts = w.sandbox().control.callbacks().filter((a) => ids.has(a.clientOrderId.replace(/-a[0-9]+$/, "")))
    const a = this.which === "first" ? attempts[0] : attempts[attempts.length - 1]
    if (!a) return void note(w, `  no callback for ${c.label} yet`)
    const res = await fetch(a.url, { redirect: "manual" }).then(async (r) => (await r.arrayBuffer(), r.status), (e) => `failed ${e.message}`)
    note(w, `  callback ${a.status} ${a.operation} of ${a.clientOrderId} → ${res}`)
  }
}

/**
 * Everything that settles a paid session, at the same moment: the gateway's latest callback delivered again, two cart
 * completions (a double click) and a reconciliation tick (storms-and-races.spec.ts's race, inside a sequence).
 */
export class Race extends Step {
  constructor(readonly pick: number) { super() }
  applies = (m: Readonly<Model>) => !!target(m, this.pick, hasCart)
  describe = () => `race: callback again + complete twice + tick at once (pick ${this.pick})`
  async act(m: Model, w: World) {
    const c = target(m, this.pick, hasCart)!
    const ids = new Set(c.sessionIds)
    const attempts = w.sandbox().control.callbacks().filter((a) => ids.has(a.clientOrderId.replace(/-a[0-9]+$/, "")))
    const latest = attempts[attempts.length - 1]
    await Promise.all([
      latest ? fetch(latest.url, { redirect: "manual" }).then(async (r) => note(w, `  callback ${latest.status} again → ${(await r.arrayBuffer(), r.status)}`), () => undefined) : Promise.resolve(),
      complete(w, c),
      complete(w, c),
      reconcileTick(w.container, { now: () => new Date(Date.now() + 6_000) }).then(() => note(w, "  tick done")),
    ])
  }
}

/** One reconciliation tick (the plugin's scheduled job), looking a few seconds ahead as a later tick would. */
export class Tick extends Step {
  applies = () => true
  describe = () => "reconciliation tick"
  async act(_m: Model, w: World) {
    const report = await reconcileTick(w.container, { now: () => new Date(Date.now() + 6_000) })
    note(w, `  tick: ${JSON.stringify(report).slice(0, 160)}`)
  }
}

/** The sandbox's request faults the model arms; `slow-processing` once the sandbox has it (issue 49). */
export const GATEWAY_FAULTS: string[] = ["http-500", "connection-reset", "response-lost", "unreadable-200", "latency",
  ...((FAULT_KINDS as readonly string[]).includes("slow-processing") ? ["slow-processing"] : [])]

/**
 * How long a slow-processing fault keeps the gateway busy: within the client's header timeout (the spec sets it to
 * CLIENT_HEADERS_TIMEOUT_MS), beyond it, and until the sequence's end (settle finishes it).
 */
export const CLIENT_HEADERS_TIMEOUT_MS = 1500
const SLOW_MS = [400, 3000, 600_000]

const pick = fc.nat({ max: 30 })
const OPERATIONS = ["PREAUTH", "PREAUTHFORM", "SALEFORM", "CAPTURE", "RETURN", "VOID", "REBILL", "STATUS"]

/** A checkout of any kind; `completeWeight` of 4 completes the cart right after paying. */
export function checkoutCommand(completeWeight = 2): fc.Arbitrary<Cmd> {
  const arb = fc.record({
    kind: fc.constantFrom<CheckoutKind>("hosted", "auto", "direct", "direct-3ds", "saved-card", "off-session"),
    cvv: fc.constantFrom("123", "123", "111", "116", "fail", "none"),
    complete: fc.integer({ min: 1, max: 4 }).map((n) => n <= completeWeight),
    followReturn: fc.boolean(),
  }).map(({ kind, cvv, complete, followReturn }) => new Checkout_(kind, kind === "direct" && (cvv === "fail" || cvv === "none") ? "123" : kind === "saved-card" && cvv === "fail" ? "none" : cvv, complete, followReturn))
  return withFault(arb)
}

/** A sandbox fault as drawn: any request fault, on the step's own request or (one in four) on the STATUS after it. */
function faultSpec(): fc.Arbitrary<FaultSpec> {
  return fc.record({
    kind: fc.constantFrom(...GATEWAY_FAULTS),
    latency: fc.integer({ min: 100, max: 800 }),
    slow: fc.constantFrom(...SLOW_MS),
    variant: fc.constantFrom("garbage", "truncated", "wrong-content-type"),
    onStatus: fc.integer({ min: 1, max: 4 }).map((n) => n === 1),
  }).map(({ kind, latency, slow, variant, onStatus }) => ({ kind, ms: kind === "slow-processing" ? slow : latency, variant, onStatus }))
}

/** The step, half the time under a fault of its own request. */
function withFault(step: fc.Arbitrary<Step>): fc.Arbitrary<Cmd> {
  return fc.tuple(step, fc.option(faultSpec(), { freq: 2 })).map(([s, f]) => s.with(f) as Cmd)
}

/** Every command, weighted: checkouts and money actions most, the gateway's faults often, the rest now and then. */
export function allCommands(): Array<fc.Arbitrary<Cmd>> {
  const checkout = checkoutCommand()
  const percent = fc.integer({ min: 1, max: 99 })
  return [
    fc.oneof(
      { weight: 6, arbitrary: checkout },
      { weight: 3, arbitrary: withFault(fc.tuple(pick, submit).map(([p, h]) => new Complete(p, h))) },
      { weight: 2, arbitrary: fc.tuple(pick, fc.constantFrom<keyof typeof PROVIDER_IDS>("hosted", "auto", "direct"), submit).map(([p, pr, h]) => new NewSession(p, pr, h) as Cmd) },
      { weight: 1, arbitrary: fc.tuple(pick, fc.boolean(), fc.boolean()).map(([p, s, r]) => new PayPage(p, s, r) as Cmd) },
      { weight: 1, arbitrary: withFault(fc.tuple(pick, fc.constantFrom("123", "111", "116", "321"), submit).map(([p, cvv, h]) => new CardAgain(p, cvv, h))) },
      { weight: 1, arbitrary: withFault(fc.tuple(pick, fc.boolean(), submit).map(([p, c, h]) => new SavedCardAgain(p, c, h))) },
      { weight: 3, arbitrary: withFault(fc.tuple(pick, fc.oneof(fc.constant<"all">("all"), percent), submit).map(([p, pc, h]) => new Capture(p, pc, h))) },
      { weight: 2, arbitrary: withFault(fc.tuple(pick, percent, submit).map(([p, pc, h]) => new Refund(p, pc, h))) },
      { weight: 1, arbitrary: withFault(fc.tuple(pick, submit).map(([p, h]) => new Cancel(p, h))) },
      { weight: 2, arbitrary: withFault(pick.map((p) => new EditOrder(p))) },
      // drawn often: it applies only once an edit (or a rebill) has made a link
      { weight: 4, arbitrary: withFault(fc.tuple(pick, fc.constantFrom<"plugin-page" | "store-route">("plugin-page", "store-route"), fc.boolean()).map(([p, v, r]) => new PayLink(p, v, r))) },
      { weight: 1, arbitrary: withFault(fc.tuple(pick, submit).map(([p, h]) => new AdminRebill(p, h))) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...OPERATIONS), faultSpec()).map(([op, f]) => new GatewayFault(f.kind, op, f.ms, f.variant) as Cmd) },
      { weight: 1, arbitrary: fc.constantFrom("callback-off", "callback-duplicate", "callback-out-of-order", "callback-delay" as const).map((k) => new CallbackFault(k) as Cmd) },
      { weight: 1, arbitrary: fc.tuple(pick, fc.constantFrom<"first" | "latest">("first", "latest")).map(([p, wh]) => new Redeliver(p, wh) as Cmd) },
      { weight: 1, arbitrary: fc.constant(new Tick() as Cmd) },
      { weight: 1, arbitrary: pick.map((p) => new Race(p) as Cmd) },
    ),
  ]
}
