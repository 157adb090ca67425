/**
 * The reads of callback processing (workflows/payneteasy/process-callback.ts), each one statement where Query and the
 * module's ORM took several: the worker runs them for every callback of a burst (bench "callback → Payment": the
 * plugin's own statements per callback were 25 beyond Medusa's processPaymentWorkflow, goal ≤ 10).
 * - `readCallbackRows`: the rows one `payneteasy.callback.received` event names, before the lock (one read per event,
 *   not per callback);
 * - `readForPlan`: under the session's lock, the row, its payment session and where the session's collection leads
 *   (Payment, cart, order), together;
 * - `paymentLinks`: the same Payment / cart / order lookup alone (settle-session.ts, before and after completing);
 * - `paymentOfSession`: a Payment Medusa recorded for a session id, whether or not the session is still there
 *   (orphaned-payment.ts: money Medusa holds as a Payment is never given back behind its back).
 *
 * Raw SQL on the payment module's and the link tables, read only, as core/callbacks/verify.ts and
 * modules/payneteasy/session-callback-insert.ts do: the same filters as Query applies (not deleted; a session of one
 * of our providers) and the link tables' own indexes (payment_collection_id, cart_id; payment_session_id).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { PROVIDER_PREFIX } from "../connection/registration"
import type { SessionInfo } from "./verify"

/** What a payment collection leads to: its session's Payment, its cart and, once completed, its order. */
export type PaymentLinks = { paymentId?: string; cartId?: string; orderId?: string }

type Raw = { raw(sql: string, params: unknown[]): Promise<{ rows: any[] }> }
const knex = (container: MedusaContainer) => container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Raw

const CALLBACK_COLUMNS =
  "id, source, provider_id, session_id, orderid, client_orderid, type, status, event_key, amount, currency, error_code, error_message, action, params, outcome, outcome_detail, received_at, processed_at, created_at, updated_at, deleted_at"

/** Payment, cart and order of session `s` in collection `pc` (the order through either link: cart completion writes both). */
const LINKS_SQL = (s: string, pc: string) => `
  (select p.id from payment p where p.payment_session_id = ${s} and p.deleted_at is null order by p.created_at limit 1) as link_payment_id,
  (select c.cart_id from cart_payment_collection c where c.payment_collection_id = ${pc} and c.deleted_at is null limit 1) as link_cart_id,
  coalesce(
    (select o.order_id from order_payment_collection o where o.payment_collection_id = ${pc} and o.deleted_at is null limit 1),
    (select oc.order_id from cart_payment_collection c join order_cart oc on oc.cart_id = c.cart_id and oc.deleted_at is null
      where c.payment_collection_id = ${pc} and c.deleted_at is null limit 1)
  ) as link_order_id`

const linksOf = (r: { link_payment_id: string | null; link_cart_id: string | null; link_order_id: string | null }): PaymentLinks => ({
  ...(r.link_payment_id ? { paymentId: r.link_payment_id } : {}),
  ...(r.link_cart_id ? { cartId: r.link_cart_id } : {}),
  ...(r.link_order_id ? { orderId: r.link_order_id } : {}),
})

const notFound = (id: string) => new MedusaError(MedusaError.Types.NOT_FOUND, `PaynetEasy callback with id: ${id} was not found`)

/** The callback-log rows with these ids (not deleted), by id; one statement. */
export async function readCallbackRows(container: MedusaContainer, ids: string[]): Promise<Map<string, CallbackRow>> {
  if (ids.length === 0) return new Map()
  const { rows } = await knex(container).raw(
    `select ${CALLBACK_COLUMNS} from payneteasy_callback where id = any(?) and deleted_at is null`,
    [[...new Set(ids)]]
  )
  return new Map(rows.map((r: CallbackRow) => [r.id, r]))
}

/**
 * The row (NOT_FOUND when there is none), its PaynetEasy payment session (undefined: none, deleted, or another
 * provider's; core/callbacks/verify.ts `findSession`) and, with a session, its Payment / cart / order: one statement.
 */
export async function readForPlan(
  container: MedusaContainer,
  callbackId: string
): Promise<{ row: CallbackRow; session?: SessionInfo; links?: PaymentLinks }> {
  const { rows } = await knex(container).raw(
    `select cb.*, s.id as s_id, s.provider_id as s_provider_id, s.status as s_status, s.amount as s_amount,
            s.currency_code as s_currency_code, s.data as s_data, s.payment_collection_id as s_payment_collection_id,
            ${LINKS_SQL("s.id", "s.payment_collection_id")}
     from (select ${CALLBACK_COLUMNS} from payneteasy_callback where id = ? and deleted_at is null) cb
     left join payment_session s on s.id = cb.session_id and s.deleted_at is null and starts_with(s.provider_id, ?)`,
    [callbackId, PROVIDER_PREFIX]
  )
  const r = rows[0]
  if (!r) throw notFound(callbackId)
  const row = Object.fromEntries(CALLBACK_COLUMNS.split(", ").map((c) => [c, r[c]])) as CallbackRow
  if (!r.s_id) return { row }
  const session: SessionInfo = {
    id: r.s_id, provider_id: r.s_provider_id, status: r.s_status, amount: r.s_amount, currency_code: r.s_currency_code,
    data: r.s_data ?? {}, payment_collection_id: r.s_payment_collection_id,
  }
  return { row, session, links: linksOf(r) }
}

/** The session's Payment, its collection's cart and that cart's order: one statement. */
export async function paymentLinks(container: MedusaContainer, sessionId: string, paymentCollectionId: string): Promise<PaymentLinks> {
  const { rows } = await knex(container).raw(
    `select ${LINKS_SQL("k.s", "k.pc")} from (select ?::text as s, ?::text as pc) k`,
    [sessionId, paymentCollectionId]
  )
  return linksOf(rows[0])
}

/** The id of a Payment (not deleted) Medusa recorded for payment session `sessionId`, whether or not the session exists. */
export async function paymentOfSession(container: MedusaContainer, sessionId: string): Promise<string | undefined> {
  const { rows } = await knex(container).raw(
    `select id from payment where payment_session_id = ? and deleted_at is null order by created_at limit 1`,
    [sessionId]
  )
  return rows[0]?.id
}
