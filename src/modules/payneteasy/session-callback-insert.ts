/**
 * Recording callbacks for payment sessions with the check that vouches for them in the same statement: a callback is
 * inserted only if its session exists, is not deleted, and belongs to one of the registrations whose control key
 * verified it (the caller checked the control in memory against each registration: core/connection/callback-keys.ts).
 * One round trip where a session read and then the insert took two: the callback route's hot path (bench
 * "callbacks/s"; PaynetEasyModuleService.recordSessionCallbacks).
 *
 * Its own file so the statement is read in one place. It joins the payment module's `payment_session` table, read
 * only, on the columns core/callbacks/verify.ts reads too (id, provider_id, deleted_at): raw SQL across two modules' tables
 * in one database, as that read does, because a link or a Query graph cannot take part in an INSERT.
 * The values travel as one array a column (`unnest`), so the statement has the same 16 bindings however many callbacks
 * it records. It returns only the columns the caller matches and reads (id, outcome, provider, event key): parsing
 * each row's params, amounts and timestamps back was CPU spent for nothing.
 */

/** The callback log's unique event key (models/callback-log.ts), in this order. */
export const EVENT_KEY_COLUMNS = "source, orderid, client_orderid, type, status, event_key"

/** The columns taken from the callbacks, in binding order (each bound as one text[]), then `verifying` (JSON arrays). */
const COLUMNS = [
  "id", "source", "session_id", "orderid", "client_orderid", "type", "status", "event_key", "amount", "currency",
  "error_code", "error_message", "action", "params", "received_at",
] as const

export type SessionCallbackValues = { [C in (typeof COLUMNS)[number]]: string | null } & { verifying: string[] }

export const SESSION_CALLBACK_INSERT_SQL = `insert into payneteasy_callback (id, source, provider_id, session_id, orderid,
    client_orderid, type, status, event_key, amount, currency, error_code, error_message, action, params, outcome, received_at)
  select v.id, v.source, s.provider_id, s.id, v.orderid, v.client_orderid, v.type, v.status, v.event_key, v.amount,
    v.currency, v.error_code, v.error_message, v.action, v.params::jsonb, 'received', v.received_at::timestamptz
  from unnest(${[...COLUMNS, "verifying"].map(() => "?::text[]").join(", ")}) as v(${[...COLUMNS, "verifying"].join(", ")})
  join payment_session s on s.id = v.session_id and s.deleted_at is null
    and s.provider_id in (select jsonb_array_elements_text(v.verifying::jsonb))
  on conflict (${EVENT_KEY_COLUMNS}) where deleted_at is null do nothing
  returning id, outcome, provider_id, ${EVENT_KEY_COLUMNS}`

/** The statement's bindings: one array a column, the callbacks in order. */
export const sessionCallbackBindings = (rows: SessionCallbackValues[]): Array<Array<string | null>> => [
  ...COLUMNS.map((column) => rows.map((row) => row[column])),
  rows.map((row) => JSON.stringify(row.verifying)),
]
