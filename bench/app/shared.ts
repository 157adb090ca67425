/** Values both sides of the bench's app process share (server.ts runs on import, so the parent imports this). */
import type { StoreFixture } from "../../integration-tests/helpers/store"

export const APPROVE_CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Bench Shopper" }

/** The id of clone `i` (1-based) of a makeSessions set (server.ts): zero-padded, so a set's ids sort in clone order. */
export const sessionId = (tag: string, i: number) => `payses_${tag}${String(i).padStart(7, "0")}`

export interface Ready {
  url: string
  store: StoreFixture
  dbName: string
  bootSeconds: number
  /** whether this run migrated a new template database (bench/app/database.ts) */
  migrated: boolean
}

/** What a worker process needs to join the server (env: the same database, sandbox and public URL). */
export type SharedEnv = Record<string, string>

/** A worker process is up: its own /health, nothing else. */
export interface WorkerReady {
  url: string
  bootSeconds: number
}
