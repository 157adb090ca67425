/** The bench's verdicts: quantiles, alternated call-by-call sampling, and when a figure holds (ratio limits, growth limits, extra checks). */
import { failedCorrectness, figure, goalText } from "../report"
import { alternateCalls, pairedRatio, quantile, summarize } from "../stats"

describe("quantile / summarize", () => {
  it("median and p99 by linear interpolation", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5)
    const s = summarize(Array.from({ length: 101 }, (_, i) => 100 - i))
    expect(s).toEqual({ median: 50, p99: 99, n: 101 })
  })
})

describe("pairedRatio", () => {
  it("is the median of the per-round ratios, not the ratio of pooled medians", () => {
    // a slow round for both sides moves pooled medians apart; the per-round ratios stay put
    expect(pairedRatio({ roundRatios: [1.1, 1.05, 3, 1.08, 1.02] })).toBe(1.08)
  })
  it("inverts for rates (ours/s ÷ floor/s = floor latency ÷ ours latency)", () => {
    expect(pairedRatio({ roundRatios: [2, 4, 5] }, true)).toBe(0.25)
  })
})

describe("alternateCalls", () => {
  it("takes turns call by call, swapping which side goes first every pair, and keeps only the measured rounds", async () => {
    const order: string[] = []
    const r = await alternateCalls(
      { ours: async () => void order.push("o"), floor: async () => void order.push("f") },
      { rounds: 2, warmupRounds: 1, pairs: 3 },
    )
    expect(order.join("")).toBe("offoof".repeat(3))
    expect(r.ours.n).toBe(6)
    expect(r.floor.n).toBe(6)
    expect(r.roundRatios).toHaveLength(2)
    expect(r.p99Ratios).toHaveLength(2)
  })

  it("ends a round after maxRoundMs (but not before 20 pairs)", async () => {
    let t = 0
    const step = async () => {
      t += 0.1
    }
    // 0.2 ms a pair: a 10 ms round ends after 50 pairs; with 1 ms a pair, after the 20 it always takes
    const r = await alternateCalls({ ours: step, floor: step }, { rounds: 1, warmupRounds: 0, pairs: 1000, maxRoundMs: 10, clock: () => t })
    expect(r.ours.n).toBeGreaterThanOrEqual(49)
    expect(r.ours.n).toBeLessThanOrEqual(51)
    expect(r.floor.n).toBe(r.ours.n)
    const slow = async () => {
      t += 0.5
    }
    const s = await alternateCalls({ ours: slow, floor: slow }, { rounds: 1, warmupRounds: 0, pairs: 1000, maxRoundMs: 10, clock: () => t })
    expect(s.ours.n).toBe(20)
  })

  it("gives each round the ratio of that round's medians and p99s (on a clock the test controls)", async () => {
    let t = 0
    let calls = 0
    // ours takes 30 ms a call in the first round and 90 ms in the second, with one slow call (120 / 360 ms) each; the floor 10 ms
    const r = await alternateCalls(
      {
        ours: async () => {
          const round = Math.floor(calls / 5)
          const slow = calls++ % 5 === 4
          t += (round === 0 ? 30 : 90) * (slow ? 4 : 1)
        },
        floor: async () => {
          t += 10
        },
      },
      { rounds: 2, warmupRounds: 0, pairs: 5, clock: () => t },
    )
    expect(r.roundRatios).toEqual([3, 9])
    expect(r.p99Ratios[0]).toBeCloseTo(11.64, 2)
    expect(r.p99Ratios[1]).toBeCloseTo(34.92, 2)
    expect(r.ours.n).toBe(10)
  })
})

describe("figure", () => {
  const base = { figure: "f", oursWhat: "o", floorWhat: "f", unit: "ms" }
  it("ratio-max holds at the limit and not above it", () => {
    expect(figure({ ...base, goal: { kind: "ratio-max", limit: 1.25 }, ours: { value: 1.25 }, floor: { value: 1 } }).holds).toBe(true)
    expect(figure({ ...base, goal: { kind: "ratio-max", limit: 1.25 }, ours: { value: 1.3 }, floor: { value: 1 } }).holds).toBe(false)
  })
  it("ratio-min holds at the limit and not below it", () => {
    expect(figure({ ...base, goal: { kind: "ratio-min", limit: 0.9 }, ours: { value: 9 }, floor: { value: 10 } }).holds).toBe(true)
    expect(figure({ ...base, goal: { kind: "ratio-min", limit: 0.9 }, ours: { value: 8 }, floor: { value: 10 } }).holds).toBe(false)
  })
  it("growth-max judges the difference, and a failed check fails the figure", () => {
    const grown = { ...base, unit: "MB", goal: { kind: "growth-max" as const, limit: 50 }, floor: { value: 500 } }
    expect(figure({ ...grown, ours: { value: 549 } }).holds).toBe(true)
    expect(figure({ ...grown, ours: { value: 551 } }).holds).toBe(false)
    expect(figure({ ...grown, ours: { value: 510 }, checks: [{ what: "0 lost", ok: false }] }).holds).toBe(false)
    expect(goalText(grown)).toBe("growth ≤ 50 MB")
  })
  it("a figure without a usable floor never holds", () => {
    expect(figure({ ...base, goal: { kind: "ratio-min", limit: 0.5 }, ours: { value: 1 }, floor: { value: 0 } }).holds).toBe(false)
  })
})

describe("failedCorrectness", () => {
  const base = { figure: "callbacks/s", oursWhat: "o", floorWhat: "f", unit: "req/s", goal: { kind: "ratio-min" as const, limit: 0.5 }, ours: { value: 1 }, floor: { value: 10 } }
  it("names the failed correctness checks, not a missed goal or a failed speed check", () => {
    const f = figure({
      ...base,
      checks: [
        { what: "0 lost: 9 rows for 10", ok: false, correctness: true },
        { what: "0 non-2xx: 0", ok: true, correctness: true },
        { what: "worker grew 60 MB", ok: false },
      ],
    })
    expect(f.holds).toBe(false)
    expect(failedCorrectness([f])).toEqual(["callbacks/s: 0 lost: 9 rows for 10"])
    expect(failedCorrectness([figure({ ...base, checks: [{ what: "worker grew 60 MB", ok: false }] })])).toEqual([])
  })
})
