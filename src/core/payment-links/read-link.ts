/**
 * Reading a payment link's collection, where it leads (order or cart) and the order's public facts, through Medusa's
 * Query (the modules' own read path), in four statements at most. What the page and the store route show comes from
 * here; nothing a shopper sent enters it except the collection id.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { LinkCollection, LinkFacts, LinkOrder } from "./link-state"
import type { LinkSession } from "./resume"

export interface LinkAddress {
  first_name?: string | null
  last_name?: string | null
  address_1?: string | null
  city?: string | null
  postal_code?: string | null
  country_code?: string | null
  province?: string | null
  phone?: string | null
}

export interface LinkOrderFull extends LinkOrder {
  display_id?: number | null
  currency_code: string
  email?: string | null
  region_id?: string | null
  customer?: { id: string; has_account?: boolean | null } | null
  billing_address?: LinkAddress | null
  shipping_address?: LinkAddress | null
  items?: Array<{ id: string; title?: string | null; product_title?: string | null; variant_title?: string | null; quantity: unknown; unit_price: unknown; raw_unit_price?: unknown; total?: unknown; raw_total?: unknown }> | null
  payment_collections?: Array<{ payments?: Array<{ provider_id: string; created_at?: string | Date | null } | null> | null } | null> | null
}

export interface LinkRecords extends LinkFacts {
  collection?: LinkCollection & { region_id?: string | null; payment_sessions?: LinkSession[] | null }
  order?: LinkOrderFull
  /** PaynetEasy providers enabled in the collection's region, in Medusa's order */
  providerIds: string[]
}

const COLLECTION_FIELDS = [
  "id", "status", "amount", "raw_amount", "currency_code", "region_id",
  "payments.id", "payments.canceled_at",
  "payment_sessions.id", "payment_sessions.provider_id", "payment_sessions.status", "payment_sessions.amount",
  "payment_sessions.raw_amount", "payment_sessions.data", "payment_sessions.created_at",
]

const ORDER_FIELDS = [
  "id", "display_id", "status", "is_draft_order", "currency_code", "email", "customer_id", "region_id", "summary",
  "customer.id", "customer.has_account",
  "billing_address.*", "shipping_address.*",
  "items.*",
  "payment_collections.payments.provider_id", "payment_collections.payments.created_at",
]

/**
 * Whether `id` could be an id Medusa made (prefix, underscore, ULID: letters, digits, `_`, `-`). The id comes from the
 * address: anything else (a NUL byte, which Postgres refuses in a query: the app answered 500) is a link to nothing,
 * decided before a query or a lock.
 */
export function couldBeCollectionId(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(id)
}

const raw = (o: any, field: string) => o?.[`raw_${field}`] ?? o?.[field]

export async function readLink(container: MedusaContainer, collectionId: string): Promise<LinkRecords> {
  if (!couldBeCollectionId(collectionId)) return { providerIds: [] }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ data: collections }, { data: orderLinks }, { data: cartLinks }] = await Promise.all([
    query.graph({ entity: "payment_collection", fields: COLLECTION_FIELDS, filters: { id: collectionId } }),
    query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: collectionId } }),
    query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: collectionId } }),
  ])
  const c = collections[0] as any
  if (!c) return { providerIds: [] }
  const orderId = (orderLinks[0] as { order_id?: string } | undefined)?.order_id
  const cartId = (cartLinks[0] as { cart_id?: string } | undefined)?.cart_id
  const orderRead = orderId ? await query.graph({ entity: "order", fields: ORDER_FIELDS, filters: { id: orderId } }) : { data: [] as any[] }
  // an order's collection has no region of its own (createOrderPaymentCollectionWorkflow sets none): the order's
  const regionId = c.region_id ?? (orderRead.data[0] as any)?.region_id
  const regionRead = regionId
    ? await query.graph({ entity: "region", fields: ["payment_providers.id", "payment_providers.is_enabled"], filters: { id: regionId } })
    : { data: [] as any[] }
  const providerIds = ((regionRead.data[0] as any)?.payment_providers ?? [])
    .filter((p: any) => p && p.is_enabled !== false && typeof p.id === "string" && p.id.startsWith("pp_payneteasy_"))
    .map((p: any) => p.id as string)
  const sessions: LinkSession[] = (c.payment_sessions ?? [])
    .filter((s: any) => s && String(s.provider_id).startsWith("pp_payneteasy_"))
    .sort((a: any, b: any) => String(b.created_at ?? "").localeCompare(String(a.created_at ?? "")))
    .map((s: any) => ({ id: s.id, provider_id: s.provider_id, status: s.status, amount: raw(s, "amount"), data: s.data ?? {} }))
  return {
    collection: { id: c.id, status: c.status, amount: raw(c, "amount"), currency_code: c.currency_code, region_id: c.region_id, payments: c.payments ?? [], payment_sessions: sessions },
    order: (orderRead.data[0] as LinkOrderFull | undefined) ?? undefined,
    ...(cartId ? { cartId } : {}),
    providerIds,
  }
}
