/**
 * The world the money model runs in: one booted Medusa app (the runner's), the gateway sandbox over real HTTP, and the
 * actors that use them as the public API allows — a guest storefront (publishable key only), a logged-in customer
 * holding one saved card, an admin, the gateway itself (its callbacks, replayed by the test too) and the plugin's
 * reconciliation tick. Built once per spec file (`createWorld`, in beforeAll); every sequence fast-check draws starts
 * with `newSequence`, which forgets the previous sequence's checkouts and clears the sandbox's faults, nothing more:
 * sequences never share a cart, so the oracle looks only at the current one's and no database reset is needed.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { payHostedPage, type Sandbox } from "../../../src/sandbox"
import { PROVIDER_IDS } from "../../../integration-tests/helpers/provider-options"
import { waitFor } from "../../../integration-tests/helpers/inspect"
import {
  createAdminUser, payerFromCart, registerCustomer, seedStore, storeHeaders,
  type AdminAuth, type Api, type CustomerAuth, type StoreFixture,
} from "../../../integration-tests/helpers/store"

/** The one card every actor pays with: its number must never be found in a stored row (oracle.ts scans for it). */
export const TEST_PAN = "4444555566661111"
export const hostedCard = (cvv2 = "123") => ({ number: TEST_PAN, cvv2, expMonth: "12", expYear: "2031", holder: "Model Shopper" })
export const directCard = (cvv = "123") => ({ card: { number: TEST_PAN, cvv, expMonth: "12", expYear: "2031", holder: "Model Shopper" } })

/** How a checkout pays; "link" is an order's later collection (an order edit's difference, a rebill's own), with no cart. */
export type CheckoutKind = "hosted" | "auto" | "direct" | "direct-3ds" | "saved-card" | "off-session" | "link"

/** What the sequence learned about one checkout (a cart and its payment collection), from the answers it got. */
export interface Checkout {
  /** "#3 saved-card": the checkout's number in the sequence and how it pays. */
  label: string
  kind: CheckoutKind
  /** The customer's checkouts carry the customer's bearer token; a guest's only the publishable key. */
  customer: boolean
  /** "" for a link (an order's later collection has no cart). */
  cartId: string
  collectionId: string
  /** The provider its sessions use. */
  providerId: string
  /** Every session id an answer named (the oracle also reads the collection's deleted sessions). */
  sessionIds: string[]
  /** Hosted page addresses of its sessions, oldest first (a stale tab pays the first). */
  pages: string[]
  /** The newest session an answer returned (its data: redirectUrl, nextAction, clientOrderId). */
  session?: any
  /** Set once a completion answered with an order (or the oracle found one, e.g. a callback completed the cart). */
  orderId?: string
}

export interface World {
  api: Api
  container: MedusaContainer
  sandbox: () => Sandbox
  store: StoreFixture
  admin: AdminAuth
  customer: CustomerAuth
  savedCardId: string
  /** Every request the sequence's actors made, one line each, for a failure's report. */
  log: string[]
  /** What a command's answers broke (a refusal that did not come): reported with the step check's problems. */
  expectations: string[]
  /** The current sequence's checkouts (the fast-check model holds the same array). */
  checkouts: Checkout[]
  sql<T = any>(text: string, params?: unknown[] | Record<string, unknown>): Promise<T[]>
}

export async function createWorld(api: Api, container: MedusaContainer, sandbox: () => Sandbox): Promise<World> {
  // The product ships nothing: a checkout has no shipping step (Medusa's cart refresh on it is most of a checkout's
  // CPU), and what the model draws is the payment, not the shipping.
  const store = await seedStore(container, { currency: "eur", unitPrice: "10.42", shipsNothing: true })
  const admin = await createAdminUser(api, container)
  const customer = await registerCustomer(api, store, "model", {
    address_1: "7 Model St", city: "Berlin", postal_code: "10117", country_code: store.countryCode, phone: "+49307777777",
  })
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
  const world: World = {
    api, container, sandbox, store, admin, customer, savedCardId: "", log: [], checkouts: [], expectations: [],
    sql: async (text, params) => (await pg.raw(text, params ?? [])).rows,
  }
  // The customer's one saved card: a hosted checkout with save_card, paid on the sandbox's page.
  const cart = await newCart(world, true)
  const collection = (await api.post("/store/payment-collections", { cart_id: cart.id }, { headers: customer.headers })).data.payment_collection
  const ses = await api.post(`/store/payment-collections/${collection.id}/payment-sessions`,
    { provider_id: PROVIDER_IDS.auto, data: { payer: payerFromCart(cart), save_card: true } }, { headers: customer.headers })
  await payHostedPage(ses.data.payment_collection.payment_sessions[0].data.redirectUrl, hostedCard())
  const done = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers: customer.headers })
  if (done.data.type !== "order") throw new Error(`the saved card's checkout did not place an order: ${JSON.stringify(done.data).slice(0, 300)}`)
  world.savedCardId = await waitFor("the saved card", async () =>
    (await api.get("/store/payneteasy/cards", { headers: customer.headers })).data.cards[0]?.id as string | undefined)
  return world
}

/** Before each sequence: no faults left armed, no checkouts remembered. Earlier sequences' carts are left as they are. */
export function newSequence(world: World): void {
  world.sandbox().control.clearFaults()
  world.checkouts = []
  world.log = []
  world.expectations = []
}

export function headersOf(world: World, customer: boolean): Record<string, string> {
  return customer ? world.customer.headers : storeHeaders(world.store).headers
}

/** A cart of one item (10.42 EUR), a guest's or the customer's, with the billing address the gateway needs. */
export async function newCart(world: World, customer: boolean, quantity = 1): Promise<any> {
  const address = {
    first_name: "Model", last_name: "Shopper", address_1: "7 Model St", city: "Berlin", postal_code: "10117",
    country_code: world.store.countryCode, phone: "+49307777777",
  }
  const body = {
    region_id: world.store.regionId, sales_channel_id: world.store.salesChannelId, currency_code: world.store.currency,
    items: [{ variant_id: world.store.variantId, quantity }], shipping_address: address, billing_address: address,
    ...(customer ? {} : { email: "guest@payneteasy.test" }),
  }
  return (await world.api.post("/store/carts", body, { headers: headersOf(world, customer) })).data.cart
}

/** Adds a line to the sequence's log (RELIABILITY_DEBUG=1 also prints it as it happens, with the time). */
export function note(world: World, line: string): void {
  world.log.push(line)
  if (process.env.RELIABILITY_DEBUG) process.stderr.write(`[model ${new Date().toISOString().slice(11, 23)}] ${line}\n`)
}

/** An HTTP call whose answer is kept whatever its status (an error's response too); logged. */
export async function call(world: World, what: string, p: Promise<any>): Promise<{ status: number; data: any }> {
  const res = await p.catch((e: any) => e.response ?? { status: 0, data: { message: String(e?.message ?? e) } })
  const brief = res.status >= 400 || res.status === 0 ? ` ${String(res.data?.message ?? res.data?.type ?? "").slice(0, 120)}` : ""
  note(world, `  ${what} → ${res.status}${brief}`)
  return { status: res.status, data: res.data }
}
