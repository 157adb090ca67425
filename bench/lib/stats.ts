/**
 * Statistics and side-by-side sampling for the benchmark suite.
 *
 * Every figure is a ratio of two measurements taken in the same run on the same machine. On a shared 2-core box the
 * machine's speed drifts over seconds, so the two sides are never measured one after the other in one long block:
 * `interleavedBench` runs many short tinybench rounds, alternating which side goes first, and pools the samples (CPU
 * loops: signing); `alternateCalls` times single asynchronous calls, ours and floor taking turns call by call, in
 * rounds (the gateway figures); `alternate` does the same for a handful of long samples (HTTP flows).
 * Summaries are the median (what the goals are judged on) and the p99 (shown, not judged).
 *
 * The ratio of a micro figure is paired: each round gives ours ÷ floor of that round's medians, measured a few
 * hundred milliseconds apart, and the figure's ratio is the median of those. Pooled medians of the two sides drift
 * apart whenever the shared machine's speed changes between rounds (the same code measured 1.02× and 1.26× in two
 * back-to-back quick runs); the paired ratio does not.
 */
type BenchCtor = new (opts: Record<string, unknown>) => any
/** tinybench is ESM-only; Node ≥ 20.19 loads it with require() (this file compiles to CommonJS). Loaded on first use,
 *  so the pure helpers below stay importable where require(esm) is not available (Jest's module runtime). */
const tinybench = (): { Bench: BenchCtor } => require("tinybench")

export interface Summary {
  /** median, in the sample unit (ms for latencies) */
  median: number
  p99: number
  n: number
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo)
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  return { median: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), n: sorted.length }
}

export interface Pair {
  ours: () => unknown
  floor: () => unknown
}

export interface RoundOptions {
  /** number of alternating rounds measured */
  rounds: number
  /** rounds run first and discarded, samples and ratios (JIT, sockets) */
  warmupRounds: number
  /** tinybench time budget per task per round, ms */
  timeMs: number
}

/**
 * Latency samples (ms) of both sides from `rounds` tinybench runs after `warmupRounds` discarded ones; every other
 * round runs the floor first. The warm-up alternates the two sides like the measurement, and is long because they
 * warm at different speeds: with the plugin's and Medusa's modules loaded (bench/index.ts), the gateway call's
 * per-round ratios fell from 1.15–1.23 to a steady 1.07–1.08 over its first five rounds of 60 ms, and the provider's
 * from 1.28–1.34 to 1.16–1.18. With one warm-up round, `--quick` (8 measured) read 1.10–1.15× and 1.22–1.24× where
 * full runs read 1.06–1.08× and 1.17×.
 */
export interface Interleaved {
  ours: Summary
  floor: Summary
  /** per round: ours' median latency ÷ the floor's median latency, in that round */
  roundRatios: number[]
}

/** Median of the per-round ratios; `invert` for rates (ours/s ÷ floor/s = floor latency ÷ ours latency). */
export function pairedRatio(r: Pick<Interleaved, "roundRatios">, invert = false): number {
  return summarize(invert ? r.roundRatios.map((x) => 1 / x) : r.roundRatios).median
}

export async function interleavedBench(pair: Pair, opts: RoundOptions): Promise<Interleaved> {
  const ours: number[] = []
  const floor: number[] = []
  const roundRatios: number[] = []
  const { Bench } = tinybench()
  for (let round = 0; round < opts.warmupRounds + opts.rounds; round++) {
    const warming = round < opts.warmupRounds
    const bench = new Bench({ time: opts.timeMs, iterations: 16, retainSamples: true, warmup: round === 0, warmupTime: opts.timeMs / 2, throws: true })
    const order: Array<["ours" | "floor", () => unknown]> = [["ours", pair.ours], ["floor", pair.floor]]
    if (round % 2 === 1) order.reverse()
    for (const [name, fn] of order) bench.add(name, fn as () => Promise<unknown>)
    await bench.run()
    if (warming) continue
    const median: Record<string, number> = {}
    for (const task of bench.tasks as Array<{ name: string; result: unknown }>) {
      const result = task.result as { latency?: { samples?: readonly number[] }; error?: unknown; state?: string }
      if (result.error) throw result.error
      const samples = result.latency?.samples ?? []
      const into = task.name === "ours" ? ours : floor
      for (const v of samples) into.push(v)
      median[task.name] = summarize(samples).median
    }
    roundRatios.push(median.ours / median.floor)
  }
  return { ours: summarize(ours), floor: summarize(floor), roundRatios }
}

/** Hand-timed alternation: `n` samples of each side, ours and floor taking turns (floor first on odd i). */
export async function alternate(pair: { ours: () => Promise<unknown>; floor: () => Promise<unknown> }, n: number): Promise<{ ours: Summary; floor: Summary }> {
  const ours: number[] = []
  const floor: number[] = []
  const time = async (fn: () => Promise<unknown>, into: number[]) => {
    const t0 = process.hrtime.bigint()
    await fn()
    into.push(Number(process.hrtime.bigint() - t0) / 1e6)
  }
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      await time(pair.ours, ours)
      await time(pair.floor, floor)
    } else {
      await time(pair.floor, floor)
      await time(pair.ours, ours)
    }
  }
  return { ours: summarize(ours), floor: summarize(floor) }
}

export interface CallRounds {
  /** rounds measured */
  rounds: number
  /** rounds run first and discarded (JIT, sockets) */
  warmupRounds: number
  /** calls of each side per round, alternating */
  pairs: number
  /** a round also ends after this long (at least 20 pairs), so a slow, loaded machine keeps the bench's time budget */
  maxRoundMs?: number
  /** the clock in ms (default performance.now); a test passes its own, so it never counts on the machine's timers */
  clock?: () => number
}

export interface Alternated extends Interleaved {
  /** per round: ours' p99 ÷ the floor's p99, in that round */
  p99Ratios: number[]
}

/**
 * Single calls timed one at a time, ours and floor taking turns call by call (ours first on even calls, the floor on
 * odd ones), `pairs` of each per round. Tinybench rounds measure each side for a whole block (60–100 ms) before the
 * other: the shared machine's speed changes between blocks, and one side's p99 then holds another moment's stalls.
 * Call by call, both sides meet the same machine within a fraction of a millisecond, and the p99s compare too.
 * Timed with performance.now() (a double: no BigInt allocated per sample, unlike hrtime.bigint()).
 */
export async function alternateCalls(pair: { ours: () => Promise<unknown>; floor: () => Promise<unknown> }, opts: CallRounds): Promise<Alternated> {
  const ours: number[] = []
  const floor: number[] = []
  const roundRatios: number[] = []
  const p99Ratios: number[] = []
  const now = opts.clock ?? (() => performance.now())
  for (let round = 0; round < opts.warmupRounds + opts.rounds; round++) {
    const a: number[] = []
    const b: number[] = []
    const ends = now() + (opts.maxRoundMs ?? Infinity)
    for (let i = 0; i < opts.pairs && (i < 20 || now() < ends); i++) {
      if (i % 2 === 0) {
        let t0 = now()
        await pair.ours()
        a[i] = now() - t0
        t0 = now()
        await pair.floor()
        b[i] = now() - t0
      } else {
        let t0 = now()
        await pair.floor()
        b[i] = now() - t0
        t0 = now()
        await pair.ours()
        a[i] = now() - t0
      }
    }
    if (round < opts.warmupRounds) continue
    const sa = summarize(a)
    const sb = summarize(b)
    roundRatios.push(sa.median / sb.median)
    p99Ratios.push(sa.p99 / sb.p99)
    ours.push(...a)
    floor.push(...b)
  }
  return { ours: summarize(ours), floor: summarize(floor), roundRatios, p99Ratios }
}
