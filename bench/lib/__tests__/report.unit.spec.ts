/** The bench's verdicts: quantiles, and when a figure holds (ratio limits, growth limits, extra checks). */
import { failedCorrectness, figure, goalText } from "../report"
import { pairedRatio, quantile, summarize } from "../stats"

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
