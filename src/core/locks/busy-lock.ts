/**
 * Admin actions that wait for a lock another request holds: when the wait runs out, the admin gets a 409 that says
 * what is busy, not a 500.
 *
 * Medusa's locking providers give up with the same message and different errors: the in-memory and Postgres ones
 * throw a plain Error("Timed-out acquiring lock."), which Medusa's error handler answers 500; the Redis one a CONFLICT,
 * which it answers 409 with a generic "retry with the Idempotency-Key" text. `underLock` turns a timeout while
 * waiting into a CONFLICT naming the busy thing; an error the job itself throws passes through unchanged.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"

/**
 * How long an admin action waits for a lock held by something in flight (a set-up's or a charge's gateway calls)
 * before answering 409: long enough for a write that is finishing, short enough that a person is not left waiting.
 */
export const ADMIN_LOCK_WAIT_SECONDS = 5

/** Whether `e` is a locking provider giving up on a lock (any of Medusa's providers). */
export function isLockTimeout(e: unknown): boolean {
  return e instanceof Error && /Timed-out acquiring lock/i.test(e.message)
}

/** Runs `job` holding `key`, waiting at most `timeoutSeconds`; a timeout becomes a CONFLICT with `busy` as its message. */
export async function underLock<T>(
  container: MedusaContainer,
  key: string,
  job: () => Promise<T>,
  { timeoutSeconds, busy }: { timeoutSeconds: number; busy: string }
): Promise<T> {
  let started = false
  try {
    return await container.resolve(Modules.LOCKING).execute(key, () => {
      started = true
      return job()
    }, { timeout: timeoutSeconds })
  } catch (e) {
    if (!started && isLockTimeout(e)) throw new MedusaError(MedusaError.Types.CONFLICT, busy)
    throw e
  }
}
