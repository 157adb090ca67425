/**
 * The money model's oracle: checkout by checkout, what the gateway sandbox holds (authorized, captured, returned,
 * released, voided: its in-process ledger) against what Medusa records (payments, captures, refunds, the order and its
 * summary) and what the plugin records (saved-card charge intents, attention items), plus a scan of the stored rows
 * for the test card's number and CVV fields.
 *
 * Two sets of rules. `stepProblems` must hold after every step, whatever is still in flight (a callback on its way, a
 * reply being settled), so it only states what can never be true even for a moment: Medusa booking money the gateway
 * did not move, a payment Medusa holds whose authorization the gateway no longer holds while its order can still
 * capture, card data in a row. Medusa is read before the sandbox, so money the gateway moves between the two reads
 * can only make the gateway's side larger. `settledProblems` holds once faults are cleared and reconciliation has run
 * (`settle`): the two ledgers agree to the minor unit and by count (one gateway movement per Medusa capture or
 * refund), a collection holds money at most once, and every intent is final, pending where it may still be completed
 * (an authorized session of an open cart), or an attention item.
 */
import { reconcileTick } from "../../../integration-tests/helpers/reconcile-tick"
import { DEFAULT_PROCESSING_WINDOW_MS } from "../../../src/core/connection"
import { attentionItems } from "../../../src/core/dashboard/attention"
import { isApproved, isFinal } from "../../../src/gateway/statuses"
import { sessionIdFromClientOrderId } from "../../../src/core/checkout/client-order-id"
import { toMinorUnits } from "../../../src/gateway/money"
import type { TransactionView } from "../../../src/sandbox"
import { TEST_PAN, type Checkout, type World } from "./world"

const minor = (v: unknown) => (v === null || v === undefined || v === "" ? 0n : toMinorUnits(String(v), "EUR"))
const INITIAL_OPERATIONS = new Set(["PREAUTH", "SALE", "REBILL", "PREAUTHFORM", "SALEFORM"])

interface PaymentRow {
  id: string
  sessionId: string
  amount: bigint
  canceled: boolean
  captured: bigint
  refunded: bigint
  captures: number
  refunds: number
  orderId?: string
  clientOrderId?: string
  /** The plugin's ledger in the payment's data: captures and refunds still pending at the gateway (maybe sent, not
   *  shown by STATUS yet), their sum, and whether a void is pending. */
  pendingCaptured: bigint
  pendingRefunded: bigint
  pendingEntries: number
  voidPending: boolean
  ledgerCaptures: number
  ledgerRefunds: number
}

export interface CheckoutLedger {
  checkout: Checkout
  sessions: Array<{ id: string; provider_id: string; status: string; deleted: boolean }>
  payments: PaymentRow[]
  order?: { id: string; status: string; paid: bigint | null; refunded: bigint | null }
  cartCompleted: boolean
  cardCharges: Array<{ client_orderid: string; state: string }>
  gateway: TransactionView[]
}

/** Approved transactions of one operation on a gateway order (a RETURN's transaction is a "reversal"). */
const approvedOf = (o: TransactionView, operation: string) => o.transactions.filter((t) => t.operation === operation && t.status === "approved").length
/** The order's first transaction (the authorization or sale) approved. */
const authorized = (o: TransactionView) => {
  const first = o.transactions[0]
  return !!first && INITIAL_OPERATIONS.has(first.operation) && first.status === "approved"
}
/** Money the gateway holds or has taken for the order now (0 once voided, released or returned in full). */
export const liveMoney = (o: TransactionView): bigint =>
  !authorized(o) || o.voided ? 0n : minor(o.authorized) - minor(o.released) - minor(o.returned) - minor(o.chargedBack)

/** Reads Medusa's and the plugin's records of the checkouts, then the sandbox's (in that order: see the header). */
export async function readLedgers(world: World, checkouts: Checkout[]): Promise<CheckoutLedger[]> {
  if (!checkouts.length) return []
  const collections = checkouts.map((c) => c.collectionId)
  const carts = checkouts.map((c) => c.cartId)
  const [sessions, payments, captures, refunds, orders, charges, completed] = await Promise.all([
    world.sql(`select id, payment_collection_id, provider_id, status, deleted_at from payment_session where payment_collection_id = any(?)`, [collections]),
    world.sql(`select id, payment_collection_id, payment_session_id, raw_amount->>'value' as amount, canceled_at, data->>'orderId' as order_id,
                 data->>'clientOrderId' as client_order_id, data->'captures' as ledger_captures, data->'refunds' as ledger_refunds,
                 data->'voidEntry' as void_entry from payment where payment_collection_id = any(?) and deleted_at is null`, [collections]),
    world.sql(`select c.payment_id, c.raw_amount->>'value' as amount from capture c join payment p on p.id = c.payment_id
                 where p.payment_collection_id = any(?) and c.deleted_at is null`, [collections]),
    world.sql(`select r.payment_id, r.raw_amount->>'value' as amount from refund r join payment p on p.id = r.payment_id
                 where p.payment_collection_id = any(?) and r.deleted_at is null`, [collections]),
    world.sql(`select l.payment_collection_id, o.id, o.status, s.totals->>'paid_total' as paid, s.totals->>'refunded_total' as refunded
                 from order_payment_collection l join "order" o on o.id = l.order_id
                 left join order_summary s on s.order_id = o.id and s.version = o.version and s.deleted_at is null
                 where l.payment_collection_id = any(?) and l.deleted_at is null`, [collections]),
    world.sql(`select payment_collection_id, client_orderid, state from payneteasy_card_charge where payment_collection_id = any(?) and deleted_at is null`, [collections]),
    world.sql(`select id from cart where id = any(?) and completed_at is not null`, [carts]),
  ])
  // The sandbox last: anything it moved meanwhile only adds to its side.
  const bySession = new Map<string, TransactionView[]>()
  for (const o of world.sandbox().control.transactions()) {
    const sessionId = sessionIdFromClientOrderId(o.clientOrderId)
    if (!sessionId) continue
    bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), o])
  }
  const sum = (rows: any[], paymentId: string) => rows.filter((r) => r.payment_id === paymentId).reduce((n, r) => n + minor(r.amount), 0n)
  const count = (rows: any[], paymentId: string) => rows.filter((r) => r.payment_id === paymentId).length
  return checkouts.map((checkout) => {
    const own = sessions.filter((s: any) => s.payment_collection_id === checkout.collectionId)
    const order = orders.find((o: any) => o.payment_collection_id === checkout.collectionId)
    if (order && !checkout.orderId) checkout.orderId = order.id
    return {
      checkout,
      sessions: own.map((s: any) => ({ id: s.id, provider_id: s.provider_id, status: s.status, deleted: !!s.deleted_at })),
      payments: payments.filter((p: any) => p.payment_collection_id === checkout.collectionId).map((p: any) => ({
        id: p.id, sessionId: p.payment_session_id, amount: minor(p.amount), canceled: !!p.canceled_at,
        captured: sum(captures, p.id), refunded: sum(refunds, p.id), captures: count(captures, p.id), refunds: count(refunds, p.id),
        orderId: p.order_id ?? undefined, clientOrderId: p.client_order_id ?? undefined,
        ...ledgerOf(p.ledger_captures, p.ledger_refunds, p.void_entry),
      })),
      order: order ? { id: order.id, status: order.status, paid: order.paid == null ? null : minor(order.paid), refunded: order.refunded == null ? null : minor(order.refunded) } : undefined,
      cartCompleted: completed.some((c: any) => c.id === checkout.cartId),
      cardCharges: charges.filter((c: any) => c.payment_collection_id === checkout.collectionId),
      gateway: [...new Set([...own.map((s: any) => s.id), ...checkout.sessionIds])].flatMap((id) => bySession.get(id) ?? []),
    }
  })
}

const takenBack = (e: any) => e?.pending !== true && isFinal(e?.status) && !isApproved(e?.status)

/** The plugin's ledger entries of a payment's data (pending ones: sent or maybe sent, not settled yet). */
function ledgerOf(captures: any, refunds: any, voidEntry: any) {
  const list = (x: any): any[] => (Array.isArray(x) ? x : [])
  const amountOf = (e: any) => (/^[0-9]+(\.[0-9]+)?$/.test(String(e?.amount)) ? minor(e.amount) : 0n)
  const pending = (x: any) => list(x).filter((e) => e?.pending === true)
  return {
    pendingCaptured: pending(captures).reduce((n, e) => n + amountOf(e), 0n),
    pendingRefunded: pending(refunds).reduce((n, e) => n + amountOf(e), 0n),
    pendingEntries: pending(captures).length + pending(refunds).length + (voidEntry?.pending === true ? 1 : 0),
    voidPending: voidEntry?.pending === true,
    // An entry the gateway declined after Medusa booked it is taken back from Medusa by reconciliation (its Capture /
    // Refund row is gone): it is no longer one of Medusa's.
    ledgerCaptures: list(captures).filter((e) => !takenBack(e)).length,
    ledgerRefunds: list(refunds).filter((e) => e?.id !== "cancel" && !takenBack(e)).length,
  }
}

/** The gateway order a Medusa payment names (by gateway order id, else client order id). */
function gatewayOf(l: CheckoutLedger, p: PaymentRow): TransactionView | undefined {
  return l.gateway.find((o) => p.orderId && o.orderid === String(p.orderId)) ?? l.gateway.find((o) => o.clientOrderId === p.clientOrderId && authorized(o))
}

/** What can never be true, even for a moment (see the header). */
export function stepProblems(ledgers: CheckoutLedger[]): string[] {
  const problems: string[] = []
  for (const l of ledgers) {
    const at = l.checkout.label
    for (const p of l.payments) {
      const gw = gatewayOf(l, p)
      if (!gw || !authorized(gw)) {
        problems.push(`${at}: Medusa payment ${p.id} (${p.amount}) has no approved gateway authorization (${p.clientOrderId ?? "no client order id"})`)
        continue
      }
      if (p.amount !== minor(gw.initialAmount)) problems.push(`${at}: payment ${p.amount} vs gateway ${gw.initialAmount} (order ${gw.orderid})`)
      // what Medusa booked beyond the gateway must be the plugin's pending entries (sent, maybe still processing)
      if (p.captured - p.pendingCaptured > minor(gw.captured)) problems.push(`${at}: Medusa captured ${p.captured} (${p.pendingCaptured} pending) but the gateway only ${gw.captured} (order ${gw.orderid})`)
      if (p.refunded - p.pendingRefunded > minor(gw.returned)) problems.push(`${at}: Medusa refunded ${p.refunded} (${p.pendingRefunded} pending) but the gateway returned only ${gw.returned} (order ${gw.orderid})`)
      // No authorization lost while its order can still capture: Medusa shows money left to capture, the gateway must
      // still hold it.
      const canCapture = !p.canceled && !p.voidPending && l.order && l.order.status !== "canceled" && p.captured < p.amount
      if (canCapture && (gw.voided || minor(gw.authorized) - minor(gw.released) - minor(gw.chargedBack) < p.amount)) {
        problems.push(`${at}: authorization lost: order ${l.order!.id} can still capture ${p.amount - p.captured} but the gateway's order ${gw.orderid} is ` +
          `${gw.voided ? "voided" : `released ${gw.released} of ${gw.authorized}`}`)
      }
    }
  }
  return problems
}

/** What must hold once faults are cleared and reconciliation has run (see the header). */
export function settledProblems(ledgers: CheckoutLedger[], attention: Set<string>): string[] {
  const problems = stepProblems(ledgers)
  for (const l of ledgers) {
    const at = l.checkout.label
    const named = (o: TransactionView) => attention.has(o.orderid) || attention.has(o.clientOrderId) || attention.has(sessionIdFromClientOrderId(o.clientOrderId) ?? "")
    const backing = new Set<string>()
    for (const p of l.payments) {
      const gw = gatewayOf(l, p)
      if (!gw) continue
      backing.add(gw.orderid)
      // Settled: Medusa's money is the gateway's, except entries still pending that an attention item names (maybe
      // sent, never shown by STATUS within the processing window: a person decides; the gateway holds at most them).
      const excused = named(gw) ? p.pendingEntries : 0
      const agrees = (medusa: bigint, pendingPart: bigint, gateway: bigint) => (excused ? medusa - pendingPart <= gateway && gateway <= medusa : medusa === gateway)
      if (!agrees(p.captured, p.pendingCaptured, minor(gw.captured))) problems.push(`${at}: Medusa captured ${p.captured}${excused ? ` (${p.pendingCaptured} pending, named by an attention item)` : ""}, the gateway ${gw.captured} (order ${gw.orderid})`)
      if (!agrees(p.refunded, p.pendingRefunded, minor(gw.returned))) problems.push(`${at}: Medusa refunded ${p.refunded}${excused ? ` (${p.pendingRefunded} pending, named by an attention item)` : ""}, the gateway returned ${gw.returned} (order ${gw.orderid})`)
      // one intent, one movement: each Medusa capture and refund is one approved gateway transaction (never more)
      const gwCaptures = gw.operation === "PREAUTH" || gw.operation === "PREAUTHFORM" ? approvedOf(gw, "CAPTURE") : p.captures
      const counts = (medusa: number, gateway: number) => (excused ? gateway <= medusa && medusa - gateway <= excused : medusa === gateway)
      if (!counts(p.captures, gwCaptures)) problems.push(`${at}: ${p.captures} Medusa captures vs ${gwCaptures} approved CAPTUREs at the gateway (order ${gw.orderid})`)
      if (!counts(p.refunds, approvedOf(gw, "RETURN"))) problems.push(`${at}: ${p.refunds} Medusa refunds vs ${approvedOf(gw, "RETURN")} approved RETURNs at the gateway (order ${gw.orderid})`)
      if (p.pendingEntries && !named(gw)) problems.push(`${at}: ${p.pendingEntries} ledger entr(ies) of payment ${p.id} still pending after settling, and no attention item`)
      if (gw.operation === "PREAUTH" || gw.operation === "PREAUTHFORM") {
        if (p.ledgerCaptures !== p.captures) problems.push(`${at}: the plugin's ledger has ${p.ledgerCaptures} captures, Medusa ${p.captures} (payment ${p.id})`)
      }
      if (p.ledgerRefunds !== p.refunds) problems.push(`${at}: the plugin's ledger has ${p.ledgerRefunds} refunds, Medusa ${p.refunds} (payment ${p.id})`)
      if (approvedOf(gw, "VOID") > 1) problems.push(`${at}: ${approvedOf(gw, "VOID")} approved VOIDs (order ${gw.orderid})`)
      const released = gw.voided || (minor(gw.captured) === 0n && minor(gw.released) >= minor(gw.authorized))
      if (p.canceled !== released && !named(gw)) problems.push(`${at}: Medusa payment ${p.canceled ? "canceled" : "not canceled"}, the gateway's order ${gw.orderid} ${released ? "released" : "holds it"}`)
    }
    // The order's summary against the captures and refunds of all its collections (its checkout's and its links'),
    // once per order, at the first of them.
    const ofOrder = l.order ? ledgers.filter((x) => x.order?.id === l.order!.id) : []
    if (l.order && ofOrder[0] === l) {
      const captured = ofOrder.flatMap((x) => x.payments).reduce((n, p) => n + p.captured, 0n)
      const refunded = ofOrder.flatMap((x) => x.payments).reduce((n, p) => n + p.refunded, 0n)
      if (l.order.paid !== null && l.order.paid !== captured) problems.push(`${at}: order summary paid ${l.order.paid}, captures ${captured}`)
      if (l.order.refunded !== null && l.order.refunded !== refunded) problems.push(`${at}: order summary refunded ${l.order.refunded}, refunds ${refunded}`)
    }
    // Money the gateway holds: backed by a Medusa payment, pending (an authorized session of a cart not completed yet),
    // or an attention item; and at most once per collection.
    const live = l.gateway.filter((o) => liveMoney(o) > 0n)
    const openAuthorized = !l.cartCompleted && l.sessions.some((s) => !s.deleted && (s.status === "authorized" || s.status === "captured"))
    for (const o of live) {
      if (backing.has(o.orderid) || named(o)) continue
      if (openAuthorized && !l.order) continue
      problems.push(`${at}: the gateway holds ${o.amount} (order ${o.orderid}, ${o.clientOrderId}, ${o.operation}) that no Medusa payment, open session or attention item accounts for`)
    }
    if (live.length > 1 && !live.every(named)) problems.push(`${at}: the gateway holds money ${live.length} times for one collection: ${live.map((o) => `${o.orderid} ${o.amount}`).join(", ")}`)
    for (const o of l.gateway) {
      const last = o.transactions[o.transactions.length - 1]
      const waitingForPayer = o.transactions.length === 1 && (o.threeDS?.pending || (o.hostedPageUrl && last.status === "processing"))
      if (last?.status === "processing" && !waitingForPayer && !named(o)) problems.push(`${at}: gateway order ${o.orderid} still processing ${last.operation} after settling`)
    }
    for (const c of l.cardCharges) {
      const gw = l.gateway.filter((o) => o.clientOrderId === c.client_orderid)
      const paid = gw.some(authorized)
      if (c.state === "sending") problems.push(`${at}: saved-card charge ${c.client_orderid} left "sending"`)
      if (c.state === "approved" && !paid) problems.push(`${at}: saved-card charge ${c.client_orderid} approved, the gateway has no approved charge`)
      if ((c.state === "declined" || c.state === "not_sent") && paid) problems.push(`${at}: saved-card charge ${c.client_orderid} ${c.state}, the gateway charged it`)
    }
  }
  return problems
}

/** Stored rows holding the test card's number or a CVV field (payment sessions, payments, carts, the plugin's tables). */
let scanSql: string | undefined
const CARD_DATA = `${TEST_PAN}|"(cvv|cvv2|cvc)"\\s*:\\s*"?[0-9]{3,4}`
export async function cardDataRows(world: World): Promise<string[]> {
  if (!scanSql) {
    const tables = (await world.sql(`select table_name from information_schema.tables where table_schema = 'public' and table_name like 'payneteasy%'`))
      .map((r: any) => r.table_name as string)
    scanSql = [
      `select 'payment_session' as t, count(*)::int as n from payment_session where data::text ~* :p`,
      `select 'payment', count(*)::int from payment where data::text ~* :p`,
      `select 'cart', count(*)::int from cart where metadata::text ~* :p`,
      ...tables.map((t) => `select '${t}', count(*)::int from "${t}" as t where t::text ~* :p`),
    ].join(" union all ")
  }
  const rows = await world.sql(`select * from (${scanSql}) as counts where n > 0`, { p: CARD_DATA })
  return rows.map((r: any) => `card data stored: ${r.n} row(s) of ${r.t}`)
}

/** Ids (gateway order, client order, session) the attention queue names. */
export async function attentionNames(world: World): Promise<Set<string>> {
  const items = await attentionItems(world.container)
  return new Set(items.flatMap((i) => [i.orderid, i.client_orderid, i.session_id].filter((x): x is string => !!x)))
}

/**
 * Faults cleared, then reconciliation ticks (looking ahead, as the job would later: seconds, then past the processing
 * window) until the settled rules hold or the rounds run out; returns what is still wrong. Waits on the condition, a
 * short pause between rounds.
 */
export async function settle(world: World, rounds = 20): Promise<string[]> {
  world.sandbox().control.clearFaults()
  // what the gateway still holds in slow processing ends now (as it would, later, by itself)
  const control = world.sandbox().control as { finishProcessing?: () => number[] }
  control.finishProcessing?.()
  // The first half of the rounds look a few seconds ahead; the rest past the processing window, as the job would once
  // it has passed: a request that may have been sent and that STATUS still does not show is then an attention item.
  const ahead = (i: number) => () => new Date(Date.now() + (i < rounds / 2 ? 6_000 : DEFAULT_PROCESSING_WINDOW_MS + 60_000))
  let problems: string[] = []
  for (let i = 0; i < rounds; i++) {
    if (i > 0) {
      await new Promise((r) => setTimeout(r, Math.min(100 * i, 500)))
      await reconcileTick(world.container, { now: ahead(i) })
    }
    problems = settledProblems(await readLedgers(world, world.checkouts), await attentionNames(world))
    if (!problems.length) break
  }
  return [...problems, ...(await cardDataRows(world))]
}

/** One line per checkout: what each side holds (for a failure's report). */
export function describe(ledgers: CheckoutLedger[]): string[] {
  return ledgers.map((l) => {
    const pays = l.payments.map((p) => `payment ${p.amount}${p.canceled ? " canceled" : ""} cap ${p.captured}×${p.captures} ref ${p.refunded}×${p.refunds}`)
    const gws = l.gateway.map((o) => `${o.operation} ${o.orderid} ${o.transactions.map((t) => `${t.operation}:${t.status}`).join(",")} auth ${o.authorized} cap ${o.captured} ret ${o.returned} rel ${o.released}${o.voided ? " voided" : ""}`)
    return `${l.checkout.label}: cart ${l.cartCompleted ? "completed" : "open"}${l.order ? `, order ${l.order.status} paid ${l.order.paid}` : ""}; ` +
      `sessions ${l.sessions.map((s) => `${s.provider_id.replace("pp_payneteasy_", "")}:${s.status}${s.deleted ? "(deleted)" : ""}`).join(" ")}; ` +
      `${pays.join("; ") || "no payment"}; gateway ${gws.join(" | ") || "none"}`
  })
}
