/**
 * The reconciliation schedule, as a pure function of time.
 *
 * Gateway advice (gateway notes §4, statuses page): "pull the status every 3-5 seconds for the first 5 minutes, then
 * continue requests for up to an hour once in 5-10 minutes. After it is better to wait for a callback" — and "if
 * transaction status haven't been changed for one hour … stop polling and inform your account manager".
 * So, measured from when we started watching the transaction:
 *   [0, 5 min)    → next check in 3–5 s
 *   [5 min, 1 h)  → next check in 5–10 min, never later than the one-hour mark (the last check happens at 1 h)
 *   ≥ 1 h         → stop: the caller flags the payment for a person.
 * The random part (jitter, injectable for tests) spreads checks of many payments so they do not arrive together.
 */

export const FAST_PHASE_MS = 5 * 60_000
export const GIVE_UP_AFTER_MS = 60 * 60_000
export const FAST_DELAY_MS: readonly [number, number] = [3_000, 5_000]
export const SLOW_DELAY_MS: readonly [number, number] = [5 * 60_000, 10 * 60_000]

const between = ([lo, hi]: readonly [number, number], rand: number) => lo + Math.floor((hi - lo) * Math.min(Math.max(rand, 0), 1))

/**
 * When to check next, or `null` when the hour is over and a person must look.
 * @param startedAt when we started watching (first callback/session seen)
 * @param now       the time of the check that just happened
 * @param rand      a number in [0, 1]; defaults to Math.random()
 */
export function nextCheckAt(startedAt: Date, now: Date, rand: number = Math.random()): Date | null {
  const elapsed = now.getTime() - startedAt.getTime()
  if (elapsed >= GIVE_UP_AFTER_MS) {
    return null
  }
  if (elapsed < FAST_PHASE_MS) {
    return new Date(now.getTime() + between(FAST_DELAY_MS, rand))
  }
  const next = now.getTime() + between(SLOW_DELAY_MS, rand)
  return new Date(Math.min(next, startedAt.getTime() + GIVE_UP_AFTER_MS))
}
