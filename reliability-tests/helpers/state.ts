/**
 * What "changes nothing" means, as numbers: row counts of the plugin's tables (payneteasy_*) and of the Medusa tables a
 * payment touches, plus the sandbox's API request counter and callback attempts. Two equal snapshots = nothing stored,
 * nothing sent to the gateway.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Sandbox } from "../../src/sandbox"

const MEDUSA_TABLES = ["payment_collection", "payment_session", "payment", "capture", "refund", "cart", "order", "order_transaction", "workflow_execution"]

export type Snapshot = Record<string, number>

/** Every public table whose name starts with payneteasy, plus MEDUSA_TABLES (those that exist). */
export async function watchedTables(container: MedusaContainer): Promise<string[]> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
  const { rows } = await pg.raw(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
       and (table_name like 'payneteasy%' or table_name = any(?)) order by table_name`,
    [MEDUSA_TABLES]
  )
  return rows.map((r: any) => r.table_name as string)
}

export async function snapshot(container: MedusaContainer, sandbox: Sandbox, tables: string[]): Promise<Snapshot> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
  const select = tables.map((t) => `(select count(*) from "${t}")::int as "${t}"`).join(", ")
  const { rows } = await pg.raw(`select ${select}`)
  const requests = Object.values(sandbox.control.requests()).reduce((a, b) => a + b, 0)
  return { ...rows[0], "sandbox:requests": requests, "sandbox:callbacks": sandbox.control.callbacks().length }
}

/** The entries that differ, `name: before → after` (empty when nothing changed). */
export function diff(before: Snapshot, after: Snapshot): string[] {
  return Object.keys({ ...before, ...after })
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k]} → ${after[k]}`)
}

/** Waits until two snapshots 400 ms apart are equal (subscribers and jobs started earlier have landed); returns it. */
export async function quiet(container: MedusaContainer, sandbox: Sandbox, tables: string[], timeoutMs = 15_000): Promise<Snapshot> {
  const deadline = Date.now() + timeoutMs
  let last = await snapshot(container, sandbox, tables)
  for (;;) {
    await new Promise((r) => setTimeout(r, 400))
    const now = await snapshot(container, sandbox, tables)
    if (diff(last, now).length === 0) return now
    if (Date.now() > deadline) throw new Error(`state still changing after ${timeoutMs} ms: ${diff(last, now).join("; ")}`)
    last = now
  }
}
