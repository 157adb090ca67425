/**
 * Service of our `payneteasy` module: the generated CRUD for the callback log and the reconciliation state, plus the
 * two operations whose correctness depends on the database rather than on process memory:
 * - `recordCallback`: insert-or-find on the event's unique key (source, orderid, client_orderid, type, status,
 *   event_key), so N identical callbacks make one row and two different later events make two;
 * - `claimDue`: take the reconciliation rows that are due and push their next check forward in the same statement,
 *   so two instances running the job at the same moment do not both check the same session.
 */
import { MedusaService, InjectManager, InjectTransactionManager, MedusaContext } from "@medusajs/framework/utils"
import type { Context, InferTypeOf } from "@medusajs/framework/types"
import { PaynetEasyCallback, type CallbackRow } from "./models/callback-log"
import { PaynetEasyReconciliation } from "./models/reconciliation"
import { PaynetEasyAttentionHandled } from "./models/attention-handled"
import { PaynetEasyStatusCheck } from "./models/status-check"
import { PaynetEasySavedCard } from "./models/saved-card"
import { PaynetEasyRebill } from "./models/rebill"
import { PaynetEasyCardCharge } from "./models/card-charge"
import { PaynetEasyPayout } from "./models/payout"
import { PaynetEasyPayoutHistory } from "./models/payout-history"
import { PaynetEasyRecurringPayment } from "./models/recurring-payment"
import { PaynetEasyRecurringCharge } from "./models/recurring-charge"
import { rowId } from "./row-id"
import { callbackProcessingDelayMs } from "./plugin-options"
import { existingCallbacks } from "./callback-lookup"
import { EVENT_KEY_COLUMNS, SESSION_CALLBACK_INSERT_SQL, sessionCallbackBindings } from "./session-callback-insert"

/** The knex of the context's entity manager (what @InjectManager put there), for this module's raw statements. */
const knexOf = (context: Context) => (context.manager as { getKnex(): any }).getKnex()

/** A callback-log row, as the model defines it (models/callback-log.ts). */
export type { CallbackRow }

export type NewCallback = Omit<CallbackRow, "id" | "outcome" | "outcome_detail" | "processed_at" | "created_at" | "updated_at" | "deleted_at">

export type RecordedCallback = { row: CallbackRow; created: boolean }
/**
 * A callback for a payment session, to record only if that session belongs to one of `verifying` (the registrations
 * whose control key verified it): its provider and session columns come from the session (recordSessionCallbacks).
 */
export type SessionCallback = Omit<NewCallback, "provider_id" | "session_id"> & { session_id: string; verifying: string[] }
/** The columns recordSessionCallbacks returns of a row it inserted (session-callback-insert.ts); a row found, all. */
export type SessionCallbackRow = Pick<CallbackRow, "id" | "outcome" | "provider_id" | "source" | "orderid" | "client_orderid" | "type" | "status" | "event_key">

/**
 * Text as Postgres can store it: without U+0000, which neither `text` nor `jsonb` accepts. A genuine callback carrying
 * one (its control covers only status, ids and key) would otherwise never be recorded and be answered 500 until the
 * gateway gave up. Also a JSON.stringify replacer.
 */
const withoutNul = (_key: string, value: unknown): unknown =>
  typeof value === "string" && value.includes("\u0000") ? value.replaceAll("\u0000", "") : value

/** Params as jsonb text without U+0000, in values (withoutNul) and in names too, which a replacer cannot rename. */
function paramsJson(params: Record<string, unknown>): string {
  const clean = Object.keys(params).some((name) => name.includes("\u0000"))
    ? Object.fromEntries(Object.entries(params).map(([name, value]) => [name.replaceAll("\u0000", ""), value]))
    : params
  return JSON.stringify(clean, withoutNul)
}

type EventKeyed = Pick<CallbackRow, "source" | "orderid" | "client_orderid" | "type" | "status" | "event_key">
const eventKeyOf = (c: EventKeyed) =>
  [c.source, c.orderid, c.client_orderid, c.type, c.status, c.event_key]

/**
 * For each event key, in order: the row an INSERT … ON CONFLICT DO NOTHING returned for it (`inserted: true`), else the
 * live row an earlier callback with that key left (a re-sent copy, or a racing statement's, which a later statement
 * sees once it commits), looked up by the whole key (callback-lookup.ts), else undefined.
 */
async function rowsForKeys<R extends EventKeyed>(
  knex: Parameters<typeof existingCallbacks>[0],
  keys: string[][],
  returned: R[]
): Promise<Array<{ row: R | CallbackRow; inserted: boolean } | undefined>> {
  const byKey = new Map<string, { row: R | CallbackRow; inserted: boolean }>()
  for (const row of returned) byKey.set(eventKeyOf(row).join("\u0000"), { row, inserted: true })
  const missing = keys.filter((key) => !byKey.has(key.join("\u0000")))
  if (missing.length > 0) {
    for (const row of await existingCallbacks(knex, missing)) byKey.set(eventKeyOf(row).join("\u0000"), { row, inserted: false })
  }
  return keys.map((key) => byKey.get(key.join("\u0000")))
}

/** A recurring payment and one of its charges, as the models define them (models/recurring-*.ts). */
export type RecurringPaymentRow = InferTypeOf<typeof PaynetEasyRecurringPayment>
export type RecurringChargeRow = InferTypeOf<typeof PaynetEasyRecurringCharge>

/**
 * A reconciliation watch row, as the model defines it (models/reconciliation.ts). `target`: "" = the session itself;
 * "capture:<id>" / "refund:<id>" / "void:void" = a ledger entry of the session's Payment.
 */
export type ReconciliationRow = InferTypeOf<typeof PaynetEasyReconciliation>

/** Plugin options (medusa-config `plugins[].options`) this module reads. None of them is a gateway credential. */
export type PaynetEasyPluginOptions = {
  /**
   * Fallback only: where the return route sends the shopper when the session's provider has no `storefrontReturnUrl`
   * option (the provider writes its option, or null, into every session's data; that value wins). Prefer the
   * provider option: it is per registration, so two registrations can return to different storefront pages.
   */
  storefrontReturnUrl?: string
  /** Recurring payments (subscriptions) are sold: a boot-time warning names a missing private key (v4 needs RSA). */
  recurringEnabled?: boolean
  /**
   * How long processing waits after the callback route has recorded a callback, in ms (0–30000, default 1000;
   * plugin-options.ts says why). Checked when Medusa boots (loaders/plugin-options-check.ts).
   */
  callbackProcessingDelayMs?: number
}

class PaynetEasyModuleService extends MedusaService({
  PaynetEasyCallback,
  PaynetEasyReconciliation,
  PaynetEasyAttentionHandled,
  PaynetEasyStatusCheck,
  PaynetEasySavedCard,
  PaynetEasyRebill,
  PaynetEasyPayout,
  PaynetEasyPayoutHistory,
  PaynetEasyRecurringPayment,
  PaynetEasyRecurringCharge,
  PaynetEasyCardCharge,
}) {
  protected readonly pluginOptions_: PaynetEasyPluginOptions
  private callbackProcessingDelayMs_: number | undefined

  /** The module's own EntityManager (its container's `manager`), for its knex only: see recordSessionCallbacks. */
  private readonly baseManager_: { getKnex(): any } | undefined

  constructor(container: Record<string, unknown>, options: PaynetEasyPluginOptions = {}) {
    // eslint-disable-next-line prefer-rest-params
    super(...arguments)
    this.pluginOptions_ = options ?? {}
    this.baseManager_ = container.manager as { getKnex(): any } | undefined
  }

  /** The `callbackProcessingDelayMs` option, or its default (the boot check has refused an invalid one). */
  callbackProcessingDelayMs(): number {
    return (this.callbackProcessingDelayMs_ ??= callbackProcessingDelayMs(this.pluginOptions_))
  }

  storefrontReturnUrl(): string | undefined {
    const url = this.pluginOptions_.storefrontReturnUrl
    return typeof url === "string" && /^https?:\/\//.test(url) ? url : undefined
  }

  /**
   * Records a callback once. Returns the row and whether this call created it. (recordCallbacks, for one.)
   */
  async recordCallback(input: NewCallback, sharedContext: Context = {}): Promise<RecordedCallback> {
    const [recorded] = await this.recordCallbacks([input], sharedContext)
    return recorded
  }

  /**
   * Records callbacks, each once: for each input, in order, its row and whether this call created it. Inputs with the
   * same event key (source, orderid, client_orderid, type, status, event_key) get the same row, created by the first.
   *
   * On the hot path of `/payneteasy/callback` (bench "callbacks/s"), however many callbacks it records (the route
   * records those of one event-loop turn together: core/callbacks/record-batch.ts): one INSERT … ON CONFLICT DO NOTHING on
   * the event's unique index, returning the rows it created. Only a copy of an earlier callback (the gateway re-sending
   * one, or a repeat within the batch) costs a second statement: its row is looked up by its whole event key
   * (`existingCallbacks`). A duplicate racing an uncommitted first copy waits for it, and a later statement sees it.
   * Raw SQL because the ORM's find-then-create sends four statements (a find, then BEGIN, INSERT, COMMIT) per row where
   * one does; the columns are this module's own table (models/callback-log.ts). Unlike the generated create, it emits
   * no internal `…created` event; nothing subscribes to one.
   */
  @InjectManager()
  async recordCallbacks(
    inputs: NewCallback[],
    @MedusaContext() sharedContext: Context = {}
  ): Promise<RecordedCallback[]> {
    if (inputs.length === 0) return []
    const knex = knexOf(sharedContext)
    const ids = inputs.map(() => rowId("pnecb"))
    const values = inputs.flatMap((input, i) => [
      ids[i], input.source, input.provider_id, input.session_id ?? null, input.orderid,
      input.client_orderid, input.type, input.status, input.event_key, input.amount ?? null, input.currency ?? null,
      input.error_code ?? null, input.error_message ?? null, input.action ?? null, paramsJson(input.params ?? {}),
      input.received_at ?? new Date(),
    ].map((v) => withoutNul("", v)))
    const keys = inputs.map((input) => eventKeyOf(input).map((v) => withoutNul("", v) as string))
    const { rows: inserted } = await knex.raw(
      `insert into payneteasy_callback (id, source, provider_id, session_id, orderid, client_orderid, type, status,
         event_key, amount, currency, error_code, error_message, action, params, outcome, received_at)
       values ${inputs.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, 'received', ?)").join(", ")}
       on conflict (${EVENT_KEY_COLUMNS}) where deleted_at is null do nothing
       returning *`,
      values
    )
    const found = await rowsForKeys(knex, keys, inserted as CallbackRow[])
    return keys.map((key, i) => {
      const row = found[i]?.row
      if (!row) throw new Error(`callback log: neither inserted nor found (${key[0]} ${key[1]} ${key[2]})`)
      // only this call's own ids were inserted by it; a repeat of an earlier input's key gets that input's row
      return { row, created: row.id === ids[i] }
    })
  }

  /**
   * Records callbacks for payment sessions, each only if its session exists, is not deleted and belongs to one of its
   * `verifying` registrations: the check and the insert are one statement (session-callback-insert.ts), the callback
   * route's hot path. For each input, in order: its row and whether this call created it. A copy of a callback
   * recorded before (or by a racing statement) gets that row, as in recordCallbacks, when one of its verifying
   * registrations recorded it. Undefined when there is no such row: a session that is missing or deleted, or one of
   * another registration; the caller tells those apart the general way (core/callbacks/accept.ts). Inputs with the same
   * event key get the same row, created by the first.
   */
  async recordSessionCallbacks(
    inputs: SessionCallback[],
    sharedContext: Context = {}
  ): Promise<Array<{ row: SessionCallbackRow; created: boolean } | undefined>> {
    if (inputs.length === 0) return []
    const text = (v: unknown) => (v === null || v === undefined ? null : (withoutNul("", String(v)) as string))
    const ids = inputs.map(() => rowId("pnecb"))
    const values = inputs.map((input, i) => ({
      id: ids[i], source: input.source, session_id: text(input.session_id), orderid: text(input.orderid),
      client_orderid: text(input.client_orderid), type: text(input.type), status: text(input.status),
      event_key: text(input.event_key), amount: text(input.amount), currency: text(input.currency),
      error_code: text(input.error_code), error_message: text(input.error_message), action: text(input.action),
      params: paramsJson(input.params ?? {}), received_at: (input.received_at ?? new Date()).toISOString(),
      verifying: input.verifying,
    }))
    // Not @InjectManager: its EntityManager fork per call (an identity map and a unit of work that raw SQL never uses)
    // was 1.4 % of the route's CPU. A context's manager, when the caller passes one, is used as the decorator would.
    const knex = knexOf(sharedContext.manager ? sharedContext : { manager: this.baseManager_ })
    const { rows } = await knex.raw(SESSION_CALLBACK_INSERT_SQL, sessionCallbackBindings(values))
    const keys = values.map((v) => eventKeyOf(v as EventKeyed) as string[])
    // A copy of a callback recorded before (the gateway re-sending it) counts only if a registration that verified
    // this copy recorded it: a message with the same event key verifies under the same key.
    const found = await rowsForKeys(knex, keys, rows as SessionCallbackRow[])
    return inputs.map((input, i) => {
      const f = found[i]
      return f && (f.inserted || input.verifying.includes(f.row.provider_id)) ? { row: f.row, created: f.row.id === ids[i] } : undefined
    })
  }

  /**
   * Writes what processing did with a callback (outcome, why, when): one UPDATE … RETURNING, where the generated
   * update sends four statements (a read, then BEGIN, UPDATE, COMMIT). It runs once per processed callback, in the
   * worker (bench "callbacks/s" counts the statements). Returns the row, or undefined when there is none.
   */
  @InjectManager()
  async setCallbackOutcome(
    id: string,
    outcome: CallbackRow["outcome"],
    detail: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<CallbackRow | undefined> {
    const { rows } = await knexOf(sharedContext).raw(
      `update payneteasy_callback set outcome = ?, outcome_detail = ?, processed_at = ?, updated_at = now()
       where id = ? and deleted_at is null returning *`,
      [outcome, detail, new Date(), id]
    )
    return rows[0] as CallbackRow | undefined
  }

  /**
   * Ends a session's own watch (target ""), if it is still pending: one UPDATE where a list and then the generated
   * update took two statements or more. Callback processing runs it once per settled callback (bench "callback →
   * Payment"). A session with no pending watch is left alone.
   */
  @InjectManager()
  async endSessionWatch(sessionId: string, lastStatus: string, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await knexOf(sharedContext).raw(
      `update payneteasy_reconciliation set state = 'final', last_status = ?, last_checked_at = ?, updated_at = now()
       where session_id = ? and target = '' and state = 'pending' and deleted_at is null`,
      [lastStatus, new Date(), sessionId]
    )
  }

  /**
   * A payout's state change: the payout row updated (when `update` is given) and one history row appended, in one
   * transaction, so nobody ever reads a status without the history row that explains it.
   */
  @InjectTransactionManager()
  async changePayout(
    update: Record<string, unknown> | null,
    history: Record<string, unknown>,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<unknown> {
    // as any (both): the generated update/create methods take the model's exact shape; callers pass checked patches of it
    const payout = update ? await this.updatePaynetEasyPayouts(update as any, sharedContext) : undefined
    await this.createPaynetEasyPayoutHistories(history as any, sharedContext)
    return payout
  }

  /**
   * Runs `read` with a context whose reads all see one database snapshot (a REPEATABLE READ transaction). For views
   * made of two reads — a payout and its history, recurring payments and their charges: the writers commit a row and
   * its history together, and two separate reads could fall on either side of that commit (a history row whose status
   * change the row does not show yet).
   */
  async readSnapshot<T>(read: (context: Context) => Promise<T>): Promise<T> {
    return this.inSnapshot(read, { isolationLevel: "repeatable read" })
  }

  @InjectTransactionManager()
  protected async inSnapshot<T>(read: (context: Context) => Promise<T>, @MedusaContext() sharedContext: Context = {}): Promise<T> {
    return read(sharedContext)
  }

  /**
   * Claims up to `limit` due reconciliation rows: one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) moves
   * their `next_check_at` forward by `leaseMs`, so a concurrent claimer skips them. Returns the claimed rows.
   */
  @InjectManager()
  async claimDue(
    now: Date,
    limit: number,
    leaseMs: number,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<ReconciliationRow[]> {
    const knex = knexOf(sharedContext)
    const lease = new Date(now.getTime() + leaseMs)
    const rows = await knex.raw(
      // The due rows are chosen once, in a materialized CTE: as `where id in (select … limit … for update skip
      // locked)`, Postgres may run the subquery again per row it updates and claim more than `limit` rows (a tick
      // once checked 19 with a limit of 15, issue 54).
      `with due as materialized (
         select id from payneteasy_reconciliation
         where state = 'pending' and deleted_at is null and next_check_at <= ?
         order by next_check_at asc limit ? for update skip locked)
       update payneteasy_reconciliation r set next_check_at = ?, updated_at = now()
       from due where r.id = due.id
       returning r.id, r.session_id, r.provider_id, r.target, r.payment_id, r.state, r.started_at, r.next_check_at, r.last_checked_at, r.checks, r.last_status, r.note`,
      [now, limit, lease]
    )
    return rows.rows as ReconciliationRow[]
  }
}

export default PaynetEasyModuleService
