/**
 * The app databases of one browser run: each spec file's app boots on its own clone of a template, and instead of each
 * file dropping its clone as it ends (a DROP DATABASE waits for a checkpoint: seconds on a busy machine, on every
 * file's critical path), the clones carry the run's id (set by global-setup.ts) and global-teardown.ts drops them all
 * at once. A spec run without that set-up drops its own clone as before.
 */
import crypto from "node:crypto"
import { adminSql, quoteIdent } from "../../integration-tests/helpers/built-app"

export const RUN_ID_ENV = "PNE_BROWSER_RUN_ID"

export function newRunId(): string {
  return crypto.randomBytes(3).toString("hex")
}

/** The name prefix for this run's clones of `kind` ("admin", "shop"). */
export function clonePrefix(kind: string): string {
  const run = process.env[RUN_ID_ENV]
  return run ? `pne_${kind}_r${run}` : `pne_${kind}`
}

/** At the end of a spec file: drop the clone now, unless the run's teardown will. */
export async function releaseClone(clone: { drop: () => Promise<void> } | undefined): Promise<void> {
  if (process.env[RUN_ID_ENV]) return
  await clone?.drop().catch(() => undefined)
}

/** Drops every clone of run `runId` (all at once; they share the checkpoints). Returns their names. */
export async function dropRunClones(runId: string): Promise<string[]> {
  if (!/^[0-9a-f]+$/.test(runId)) throw new Error(`not a run id: ${runId}`)
  const rows = await adminSql<{ datname: string }>(`select datname from pg_database where datname ~ '^pne_[a-z]+_r${runId}_'`)
  const names = rows.map((r) => r.datname)
  await Promise.all(
    names.map((name) =>
      adminSql(`drop database if exists ${quoteIdent(name)} with (force)`).catch((e: { code?: string }) =>
        e?.code === "42601" ? adminSql(`drop database if exists ${quoteIdent(name)}`) : Promise.reject(e)
      )
    )
  )
  return names
}
