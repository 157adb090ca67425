/**
 * Finding callback-log rows by their whole event key (source, orderid, client_orderid, type, status, event_key: the
 * unique index of models/callback-log.ts), for the copies of earlier callbacks that recordCallbacks (service.ts) did
 * not insert. Its own file so the bench can check the statement's plan (bench "scale") without loading the module.
 *
 * One lateral lookup per key, each an equality on every column of the unique index. Not `(columns) in ((…), (…))`:
 * for two keys or more Postgres matched only the columns the keys share (source, type, status, event_key) in the
 * index and filtered every other row of that kind, so a batch holding a re-sent callback read the whole log of, say,
 * approved preauths (37 ms at 20,000 rows, and growing with the log).
 */
import type { CallbackRow } from "./models/callback-log"

export const EXISTING_CALLBACKS_SQL = `select c.* from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
    as k(source, orderid, client_orderid, type, status, event_key)
  cross join lateral (
    select * from payneteasy_callback p
    where p.source = k.source and p.orderid = k.orderid and p.client_orderid = k.client_orderid
      and p.type = k.type and p.status = k.status and p.event_key = k.event_key and p.deleted_at is null
    limit 1) c`

/** The statement's bindings for `keys` (each [source, orderid, client_orderid, type, status, event_key]): one array a column. */
export const existingCallbacksBindings = (keys: string[][]): string[][] => [0, 1, 2, 3, 4, 5].map((j) => keys.map((key) => key[j]))

type Raw = { raw(sql: string, bindings: unknown[]): Promise<{ rows: unknown[] }> }

/** The live rows with these event keys (fewer when some have none). */
export async function existingCallbacks(knex: Raw, keys: string[][]): Promise<CallbackRow[]> {
  const { rows } = await knex.raw(EXISTING_CALLBACKS_SQL, existingCallbacksBindings(keys))
  return rows as CallbackRow[]
}
