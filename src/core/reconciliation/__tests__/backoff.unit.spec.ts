import { FAST_PHASE_MS, GIVE_UP_AFTER_MS, nextCheckAt } from "../backoff"

const start = new Date("2026-01-01T00:00:00Z")
const at = (ms: number) => new Date(start.getTime() + ms)
const delay = (now: Date, rand: number) => {
  const next = nextCheckAt(start, now, rand)
  return next === null ? null : next.getTime() - now.getTime()
}

describe("reconciliation backoff (gateway: 3-5 s for 5 min, then 5-10 min up to 1 h, then a person)", () => {
  it("checks every 3 to 5 seconds during the first five minutes", () => {
    for (const t of [0, 1_000, 60_000, FAST_PHASE_MS - 1]) {
      expect(delay(at(t), 0)).toBe(3_000)
      expect(delay(at(t), 1)).toBe(5_000)
      expect(delay(at(t), 0.5)).toBe(4_000)
    }
  })

  it("checks every 5 to 10 minutes after five minutes", () => {
    expect(delay(at(FAST_PHASE_MS), 0)).toBe(5 * 60_000)
    expect(delay(at(FAST_PHASE_MS), 1)).toBe(10 * 60_000)
    expect(delay(at(20 * 60_000), 0.5)).toBe(7.5 * 60_000)
  })

  it("never schedules past the one-hour mark, and stops at one hour", () => {
    const next = nextCheckAt(start, at(55 * 60_000), 1)
    expect(next?.getTime()).toBe(start.getTime() + GIVE_UP_AFTER_MS)
    expect(nextCheckAt(start, at(GIVE_UP_AFTER_MS), 0)).toBeNull()
    expect(nextCheckAt(start, at(GIVE_UP_AFTER_MS + 1), 0.3)).toBeNull()
  })

  it("simulated run: about 75 fast checks, then a handful of slow ones, then it gives up", () => {
    let now = start
    let fast = 0
    let slow = 0
    for (;;) {
      const next = nextCheckAt(start, now, 0.5)
      if (!next) break
      if (now.getTime() - start.getTime() < FAST_PHASE_MS) fast++
      else slow++
      now = next
    }
    expect(fast).toBe(75)
    expect(slow).toBeGreaterThanOrEqual(7)
    expect(slow).toBeLessThanOrEqual(8)
    expect(now.getTime() - start.getTime()).toBe(GIVE_UP_AFTER_MS)
  })

  it("clamps an out-of-range random value", () => {
    expect(delay(at(0), -1)).toBe(3_000)
    expect(delay(at(0), 7)).toBe(5_000)
  })
})
