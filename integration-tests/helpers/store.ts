/**
 * Seeding and storefront helpers for integration specs: build a minimal sellable store with Medusa's own core-flows
 * workflows (the same ones the starter seed script uses), then drive the Store API over HTTP exactly as a storefront
 * does (publishable key header, cart → shipping method → payment collection → payment session → complete).
 *
 * Seed in a `beforeAll` inside `testSuite`: the runner snapshots the database at the first `beforeEach` (after the
 * suite's beforeAll hooks) and restores that snapshot before every test, so seeded data and the admin user survive
 * between tests while everything a test creates is rolled back.
 *
 * Amounts are Medusa amounts: major units (10.42 = €10.42). Pass decimal strings when exactness matters.
 */
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  createUserAccountWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/medusa/core-flows"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PROVIDER_IDS } from "./provider-options"
import { payHostedPage } from "../../src/sandbox"

type HostedCard = Parameters<typeof payHostedPage>[1]

/** The subset of the runner's axios instance the helpers use (`api` from medusaIntegrationTestRunner's testSuite). */
export interface Api {
  get<T = any>(url: string, config?: { headers?: Record<string, string> }): Promise<{ status: number; data: T }>
  post<T = any>(url: string, body?: unknown, config?: { headers?: Record<string, string> }): Promise<{ status: number; data: T }>
  delete<T = any>(url: string, config?: { headers?: Record<string, string> }): Promise<{ status: number; data: T }>
}

export type Amount = number | string

export interface SeedStoreOptions {
  /** ISO 4217, lower-case as Medusa stores it. Default "eur". */
  currency?: string
  /** ISO 3166-1 alpha-2, lower-case. Default ["de"]. The first one is used for the test shipping address. */
  countries?: string[]
  /** Payment provider ids enabled on the region. Default: all three test registrations (payneteasy, direct, auto). */
  paymentProviders?: string[]
  /** Unit price of the test product in major units. Default "10.42". */
  unitPrice?: Amount
  /** Flat shipping price in major units. Default 0, so the cart total is unitPrice × quantity (no taxes configured). */
  shippingPrice?: Amount
  /** Suffix for names, so a spec can seed twice. Default: random. */
  tag?: string
  /**
   * A tax rate (percent) for every country of the region (Medusa's system tax provider, `tp_system`), and whether the
   * region's prices include it. Default: no tax. A country's tax region exists once per database: give each taxed
   * store its own countries.
   */
  tax?: { rate: number; inclusive?: boolean }
  /**
   * The product ships nothing (a download, a service: no shipping profile, no inventory), so its carts complete without
   * a shipping method and a checkout skips that step (Medusa refreshes the whole cart on it: 0.18 s of CPU a checkout
   * in the storm, 2026-11-28). For specs that make many checkouts whose shipping is not what they test. Default false.
   */
  shipsNothing?: boolean
}

export interface StoreFixture {
  currency: string
  countryCode: string
  regionId: string
  salesChannelId: string
  publishableKey: string
  stockLocationId: string
  shippingProfileId: string
  shippingOptionId: string
  productId: string
  variantId: string
  unitPrice: Amount
  shippingPrice: Amount
  /** False when seeded with `shipsNothing`: carts of the product complete without a shipping method. */
  requiresShipping: boolean
}

/** Creates region (currency + providers), sales channel, publishable key, stock location + fulfillment, shipping
 *  profile/option and one published product with one priced variant (no inventory management). */
export async function seedStore(container: MedusaContainer, options: SeedStoreOptions = {}): Promise<StoreFixture> {
  const currency = (options.currency ?? "eur").toLowerCase()
  const countries = (options.countries ?? ["de"]).map((c) => c.toLowerCase())
  const tag = options.tag ?? Math.random().toString(36).slice(2, 8)
  const unitPrice = options.unitPrice ?? "10.42"
  const shippingPrice = options.shippingPrice ?? 0
  const paymentProviders = options.paymentProviders ?? Object.values(PROVIDER_IDS)
  const link = container.resolve(ContainerRegistrationKeys.LINK)

  const {
    result: [salesChannel],
  } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: `PaynetEasy test channel ${tag}` }] },
  })

  const {
    result: [apiKey],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: `PaynetEasy test storefront ${tag}`, type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: apiKey.id, add: [salesChannel.id] } })

  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: `PaynetEasy test region ${tag}`,
          currency_code: currency,
          countries,
          payment_providers: paymentProviders,
          ...(options.tax ? { is_tax_inclusive: options.tax.inclusive === true } : {}),
        },
      ],
    },
  })

  if (options.tax) {
    const rate = options.tax.rate
    await createTaxRegionsWorkflow(container).run({
      input: countries.map((country_code) => ({
        country_code, provider_id: "tp_system", default_tax_rate: { rate, code: `VAT${rate}`, name: `Test VAT ${rate}%` },
      })),
    })
  }

  const {
    result: [stockLocation],
  } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: `PaynetEasy test warehouse ${tag}`, address: { address_1: "1 Test St", city: "Berlin", country_code: countries[0] } }] },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: stockLocation.id, add: [salesChannel.id] } })

  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: `PaynetEasy test shipping ${tag}`,
    type: "shipping",
    service_zones: [
      { name: `PaynetEasy test zone ${tag}`, geo_zones: countries.map((country_code) => ({ type: "country" as const, country_code })) },
    ],
  })
  await link.create([
    { [Modules.STOCK_LOCATION]: { stock_location_id: stockLocation.id }, [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" } },
    { [Modules.STOCK_LOCATION]: { stock_location_id: stockLocation.id }, [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id } },
  ])

  const {
    result: [shippingProfile],
  } = await createShippingProfilesWorkflow(container).run({
    input: { data: [{ name: `PaynetEasy test profile ${tag}`, type: "default" }] },
  })

  const {
    result: [shippingOption],
  } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: `Standard ${tag}`,
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: shippingProfile.id,
        type: { label: "Standard", description: "Test shipping", code: `standard-${tag}` },
        prices: [
          { currency_code: currency, amount: shippingPrice as number },
          { region_id: region.id, amount: shippingPrice as number },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: `PaynetEasy test product ${tag}`,
          status: "published",
          ...(options.shipsNothing ? {} : { shipping_profile_id: shippingProfile.id }),
          options: [{ title: "Size", values: ["One size"] }],
          variants: [
            {
              title: "One size",
              sku: `PNE-TEST-${tag}`,
              manage_inventory: false,
              options: { Size: "One size" },
              // a region price as well when the region's prices include tax: Medusa takes that preference from the
              // region only for prices with the region rule (a bare currency price follows the currency's preference)
              prices: [
                { currency_code: currency, amount: unitPrice as number },
                ...(options.tax?.inclusive ? [{ currency_code: currency, amount: unitPrice as number, rules: { region_id: region.id } }] : []),
              ] as any,
            },
          ],
          sales_channels: [{ id: salesChannel.id }],
        },
      ],
    },
  })

  return {
    currency,
    countryCode: countries[0],
    regionId: region.id,
    salesChannelId: salesChannel.id,
    publishableKey: apiKey.token,
    stockLocationId: stockLocation.id,
    shippingProfileId: shippingProfile.id,
    shippingOptionId: shippingOption.id,
    productId: product.id,
    variantId: product.variants[0].id,
    unitPrice,
    shippingPrice,
    requiresShipping: !options.shipsNothing,
  }
}

/** Headers a storefront sends to /store/* routes. */
export function storeHeaders(store: Pick<StoreFixture, "publishableKey">): { headers: Record<string, string> } {
  return { headers: { "x-publishable-api-key": store.publishableKey } }
}

export interface AdminAuth {
  headers: { authorization: string }
  token: string
  userId: string
  email: string
  password: string
}

/**
 * Creates an admin user the way Medusa does it (emailpass register → user account workflow → login) and returns
 * `{ headers: { authorization: "Bearer <jwt>" } }` for /admin/* calls. Real auth routes, real password hashing.
 */
export async function createAdminUser(
  api: Api,
  container: MedusaContainer,
  email = `admin-${Math.random().toString(36).slice(2, 8)}@payneteasy.test`,
  password = "payneteasy-test-password"
): Promise<AdminAuth> {
  const registered = await api.post<{ token: string }>("/auth/user/emailpass/register", { email, password })
  const authIdentityId = jwtPayload(registered.data.token).auth_identity_id
  if (typeof authIdentityId !== "string") {
    throw new Error("registration token carries no auth_identity_id")
  }
  const { result: user } = await createUserAccountWorkflow(container).run({
    input: { authIdentityId, userData: { email, first_name: "Test", last_name: "Admin" } },
  })
  const login = await api.post<{ token: string }>("/auth/user/emailpass", { email, password })
  return { headers: { authorization: `Bearer ${login.data.token}` }, token: login.data.token, userId: user.id, email, password }
}

/**
 * The setup most specs share: an admin login and a EUR store selling one 10.42 product. Call it in a `beforeAll`
 * inside `testSuite` (the runner snapshots the database after it): `({ admin, eur } = await adminAndEurStore(...))`.
 */
export async function adminAndEurStore(api: Api, container: MedusaContainer): Promise<{ admin: AdminAuth; eur: StoreFixture }> {
  const admin = await createAdminUser(api, container)
  const eur = await seedStore(container, { currency: "eur", unitPrice: "10.42" })
  return { admin, eur }
}

function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split(".")[1] ?? ""
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8"))
}

export interface CartOptions {
  quantity?: number
  email?: string
}

/** POST /store/carts with one line of the seeded variant and a shipping address in the region's first country. */
export async function createCart(api: Api, store: StoreFixture, options: CartOptions = {}) {
  const { data } = await api.post<{ cart: any }>(
    "/store/carts",
    {
      region_id: store.regionId,
      sales_channel_id: store.salesChannelId,
      email: options.email ?? "shopper@payneteasy.test",
      currency_code: store.currency,
      items: [{ variant_id: store.variantId, quantity: options.quantity ?? 1 }],
      shipping_address: {
        first_name: "Test",
        last_name: "Shopper",
        address_1: "1 Shopper Way",
        city: "Berlin",
        postal_code: "10115",
        country_code: store.countryCode,
        phone: "+49301234567",
      },
      billing_address: {
        first_name: "Test",
        last_name: "Shopper",
        address_1: "1 Shopper Way",
        city: "Berlin",
        postal_code: "10115",
        country_code: store.countryCode,
      },
    },
    storeHeaders(store)
  )
  return data.cart
}

/** POST /store/carts/:id/shipping-methods with the seeded shipping option. */
export async function addShippingMethod(api: Api, store: StoreFixture, cartId: string) {
  const { data } = await api.post<{ cart: any }>(
    `/store/carts/${cartId}/shipping-methods`,
    { option_id: store.shippingOptionId },
    storeHeaders(store)
  )
  return data.cart
}

/** POST /store/payment-collections for the cart. */
export async function createPaymentCollection(api: Api, store: StoreFixture, cartId: string) {
  const { data } = await api.post<{ payment_collection: any }>("/store/payment-collections", { cart_id: cartId }, storeHeaders(store))
  return data.payment_collection
}

/** POST /store/payment-collections/:id/payment-sessions — calls the provider's initiatePayment. Returns the collection
 *  and the session for `providerId`. `data` is what a storefront would send (never card data for the hosted flow). */
export async function initiatePaymentSession(
  api: Api,
  store: StoreFixture,
  paymentCollectionId: string,
  providerId: string = PROVIDER_IDS.hosted,
  data?: Record<string, unknown>
) {
  const res = await api.post<{ payment_collection: any }>(
    `/store/payment-collections/${paymentCollectionId}/payment-sessions`,
    { provider_id: providerId, ...(data ? { data } : {}) },
    storeHeaders(store)
  )
  const collection = res.data.payment_collection
  const session = (collection.payment_sessions ?? []).find((s: any) => s.provider_id === providerId)
  return { paymentCollection: collection, session }
}

/** POST /store/carts/:id/complete. Medusa answers 200 with `{ type: "order", order }` or `{ type: "cart", cart, error }`. */
export async function completeCart(api: Api, store: StoreFixture, cartId: string) {
  const { data } = await api.post<{ type: "order" | "cart"; order?: any; cart?: any; error?: any }>(
    `/store/carts/${cartId}/complete`,
    {},
    storeHeaders(store)
  )
  return data
}

/**
 * POST /store/carts/:id/complete, returning the raw response (status and body, errors included). A gateway callback
 * may be completing the same cart at that moment (409 "already being completed"): that is retried briefly.
 */
/** The direct flow's card step as a storefront sends it; the answer whatever its status (an error's response too). */
export function postCard(api: Api, store: StoreFixture, sessionId: string, body: unknown) {
  return api.post(`/store/payneteasy/payment-sessions/${sessionId}/card`, body, storeHeaders(store)).catch((e: any) => e.response)
}

export async function completeCartResponse(api: Api, store: StoreFixture, cartId: string) {
  for (let i = 0; ; i++) {
    const res = await api.post(`/store/carts/${cartId}/complete`, {}, storeHeaders(store)).catch((e: any) => e.response)
    if (res.status !== 409 || i >= 20) return res
    await new Promise((r) => setTimeout(r, 300))
  }
}

/**
 * What a storefront sends as `data.payer` when it creates the session for a guest cart: the cart's email, billing
 * address and phone (PaynetEasy requires email, phone, address1, city, zip_code, country on every payment).
 */
export function payerFromCart(cart: any, ip = "203.0.113.7") {
  const b = cart.billing_address ?? cart.shipping_address
  return {
    email: cart.email,
    first_name: b?.first_name,
    last_name: b?.last_name,
    phone: b?.phone ?? cart.shipping_address?.phone,
    address_1: b?.address_1,
    city: b?.city,
    postal_code: b?.postal_code,
    country_code: b?.country_code,
    ip,
  }
}

/**
 * The whole storefront checkout up to (not including) completion: cart → shipping → collection → session.
 * The session data defaults to `{ payer: payerFromCart(cart) }`, as a storefront would send; pass `sessionData`
 * to send something else (e.g. `{}` to test the provider's refusal without payer details); `shipping: false`
 * leaves the cart without a shipping method (so completing it fails, unless the store was seeded with `shipsNothing`:
 * its carts never get one).
 */
export async function checkoutToPaymentSession(
  api: Api,
  store: StoreFixture,
  providerId: string = PROVIDER_IDS.hosted,
  options: CartOptions & { sessionData?: Record<string, unknown>; shipping?: boolean } = {}
) {
  const created = await createCart(api, store, options)
  const cart = options.shipping === false || !store.requiresShipping ? created : await addShippingMethod(api, store, created.id)
  const collection = await createPaymentCollection(api, store, cart.id)
  const data = options.sessionData ?? { payer: payerFromCart(cart) }
  const { paymentCollection, session } = await initiatePaymentSession(api, store, collection.id, providerId, data)
  return { cart, paymentCollection, session }
}

export interface CustomerAuth {
  id: string
  email: string
  /** Store headers (publishable key) plus the customer's bearer token. */
  headers: Record<string, string>
}

/**
 * A registered, logged-in customer of `store` (Medusa's emailpass auth: register → create the customer → log in), with
 * a default billing address when `billing` is given (the gateway needs a payer address and phone for a verification).
 */
export async function registerCustomer(
  api: Api,
  store: StoreFixture,
  tag: string,
  billing?: { address_1: string; city: string; postal_code: string; country_code: string; phone: string }
): Promise<CustomerAuth> {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@payneteasy.test`
  const password = "customer-password"
  const names = { first_name: "Card", last_name: "Keeper" }
  const reg = await api.post("/auth/customer/emailpass/register", { email, password })
  const created = await api.post("/store/customers", { email, ...names }, {
    headers: { ...storeHeaders(store).headers, authorization: `Bearer ${reg.data.token}` },
  })
  const login = await api.post("/auth/customer/emailpass", { email, password })
  const headers = { ...storeHeaders(store).headers, authorization: `Bearer ${login.data.token}` }
  if (billing) {
    await api.post("/store/customers/me/addresses", { ...names, ...billing, is_default_billing: true }, { headers })
  }
  return { id: created.data.customer.id, email, headers }
}

/**
 * A logged-in customer's order paid on the sandbox's hosted page: a cart with one item shipped to `address` (also the
 * billing address), a payment session of `providerId` with `data` (the payer from the cart is added), the page paid
 * with `card`, the cart completed. Fails unless the completion answers with an order.
 */
export async function customerHostedOrder(
  api: Api,
  store: StoreFixture,
  customer: Pick<CustomerAuth, "headers">,
  options: { providerId: string; card: HostedCard; address: Record<string, string>; data?: Record<string, unknown> }
): Promise<{ orderId: string; cart: any }> {
  const { headers } = customer
  const address = { ...options.address, country_code: store.countryCode }
  const cart = (await api.post("/store/carts", {
    region_id: store.regionId, sales_channel_id: store.salesChannelId, items: [{ variant_id: store.variantId, quantity: 1 }],
    shipping_address: address, billing_address: address,
  }, { headers })).data.cart
  await api.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: store.shippingOptionId }, { headers })
  const pc = await api.post("/store/payment-collections", { cart_id: cart.id }, { headers })
  const ses = await api.post(`/store/payment-collections/${pc.data.payment_collection.id}/payment-sessions`,
    { provider_id: options.providerId, data: { payer: payerFromCart(cart), ...(options.data ?? {}) } }, { headers })
  await payHostedPage(ses.data.payment_collection.payment_sessions[0].data.redirectUrl, options.card)
  const done = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers })
  if (done.data.type !== "order") throw new Error(`cart ${cart.id} did not become an order: ${JSON.stringify(done.data).slice(0, 300)}`)
  return { orderId: done.data.order.id, cart }
}
