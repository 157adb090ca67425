/**
 * A logged-in shopper with a saved card, driven over the Store API like a storefront: the steps the saved-card specs
 * share (register, a cart up to its payment collection, a checkout that saves the card on the hosted page, a session
 * on the collection). Why here: saved-cards.spec.ts and saved-card-payments.spec.ts both need them.
 */
import { payHostedPage } from "../../src/sandbox"
import { PAYNETEASY_MODULE } from "../../src/modules/payneteasy"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PROVIDER_IDS } from "./provider-options"
import { waitFor } from "./inspect"
import { payerFromCart, registerCustomer as registerWithAddress, type Api, type CustomerAuth, type StoreFixture } from "./store"

export const SAVED_CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Saved Shopper" }

const ADDRESS = { first_name: "Card", last_name: "Keeper", address_1: "3 Card St", city: "Berlin", postal_code: "10117", country_code: "de", phone: "+49302222222" }

/** Resolves HTTP errors to their response, so a test can assert a 4xx. */
export const answer = (p: Promise<any>) => p.catch((e: any) => e.response)

export function savedCardShopper(api: Api, getContainer: () => MedusaContainer, eur: () => StoreFixture) {
  const registerCustomer = (tag: string): Promise<CustomerAuth> =>
    registerWithAddress(api, eur(), tag, { address_1: "3 Card St", city: "Berlin", postal_code: "10117", country_code: "de", phone: "+49302222222" })

  /** A logged-in customer's cart up to its payment collection. */
  async function customerCart(customer: CustomerAuth) {
    const created = await api.post(
      "/store/carts",
      { region_id: eur().regionId, sales_channel_id: eur().salesChannelId, items: [{ variant_id: eur().variantId, quantity: 1 }],
        shipping_address: ADDRESS, billing_address: ADDRESS },
      { headers: customer.headers }
    )
    const cart = created.data.cart
    await api.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: eur().shippingOptionId }, { headers: customer.headers })
    const pc = await api.post("/store/payment-collections", { cart_id: cart.id }, { headers: customer.headers })
    return { cart, collectionId: pc.data.payment_collection.id as string }
  }

  function createSession(customer: CustomerAuth, collectionId: string, data: Record<string, unknown>) {
    return answer(api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: PROVIDER_IDS.hosted, data }, { headers: customer.headers }))
  }

  const listCards = async (customer: CustomerAuth) => (await api.get("/store/payneteasy/cards", { headers: customer.headers })).data.cards as any[]
  const cardRows = async (filters: Record<string, unknown> = {}) =>
    (await (getContainer().resolve(PAYNETEASY_MODULE) as any).listPaynetEasySavedCards(filters, { withDeleted: true })) as any[]

  /** Checkout with save_card through the hosted page; resolves with the saved card as the customer sees it. */
  async function checkoutSavingCard(customer: CustomerAuth) {
    const { cart, collectionId } = await customerCart(customer)
    const ses = await createSession(customer, collectionId, { payer: payerFromCart(cart), save_card: true })
    expect(ses.status).toBe(200)
    const session = ses.data.payment_collection.payment_sessions[0]
    await payHostedPage(session.data.redirectUrl, SAVED_CARD)
    const done = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers: customer.headers })
    expect(done.data.type).toBe("order")
    const cards = await waitFor("the saved card", async () => {
      const list = await listCards(customer)
      return list.length ? list : undefined
    })
    return { order: done.data.order, session, cards }
  }

  /** The database is restored before each test (medusaIntegrationTestRunner): each test makes its own owner and card. */
  async function ownerWithCard(tag = "owner") {
    const owner = await registerCustomer(tag)
    const { cards } = await checkoutSavingCard(owner)
    return { owner, ownerCard: cards[0] }
  }

  return { registerCustomer, customerCart, createSession, listCards, cardRows, checkoutSavingCard, ownerWithCard }
}
