/**
 * The benchmark's one output: a table of figures (figure, ours, floor, ratio, goal, holds) printed to stdout and the
 * same rows as JSON in bench/results/latest.json.
 *
 * A figure's `ratio` is always ours ÷ floor of the quantity named in `unit` (a latency, a rate, a count, a size);
 * `goal` says which way it must go, and `holds` is judged on medians (p99 is reported beside them, not judged).
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import type { Summary } from "./stats"

export type Goal =
  /** ratio ≤ limit (latency-like: ours may be at most `limit` times the floor) */
  | { kind: "ratio-max"; limit: number }
  /** ratio ≥ limit (rate-like: ours must reach `limit` times the floor) */
  | { kind: "ratio-min"; limit: number }
  /** ours − floor ≤ limit, in `unit` (memory growth) */
  | { kind: "growth-max"; limit: number }

export interface Side {
  /** the judged value (a median, or a single count / size) */
  value: number
  p99?: number
  n?: number
}

export interface Figure {
  figure: string
  /** what each side is, in words */
  oursWhat: string
  floorWhat: string
  unit: string
  ours: Side
  floor: Side
  ratio: number
  goal: Goal
  holds: boolean
  /**
   * extra conditions that must also be true for `holds` (e.g. 0 lost callbacks), with what was found; a failed
   * `correctness` check is a bug, not a speed figure (the bench exits 1: bench/index.ts)
   */
  checks?: Array<{ what: string; ok: boolean; correctness?: boolean }>
  note?: string
  /** written to the JSON only, not printed (statement lists, query plans) */
  detail?: Record<string, unknown>
}

export function side(s: Summary): Side {
  return { value: s.median, p99: s.p99, n: s.n }
}

export function figure(input: Omit<Figure, "ratio" | "holds"> & { ratio?: number }): Figure {
  const ratio = input.ratio ?? input.ours.value / input.floor.value
  let holds: boolean
  switch (input.goal.kind) {
    case "ratio-max":
      holds = ratio <= input.goal.limit
      break
    case "ratio-min":
      holds = ratio >= input.goal.limit
      break
    case "growth-max":
      holds = input.ours.value - input.floor.value <= input.goal.limit
      break
  }
  if (input.checks?.some((c) => !c.ok)) holds = false
  return { ...input, ratio, holds: holds && Number.isFinite(ratio) }
}

function num(v: number): string {
  if (!Number.isFinite(v)) return String(v)
  const a = Math.abs(v)
  if (a >= 1000) return Math.round(v).toLocaleString("en-US")
  if (a >= 100) return v.toFixed(0)
  if (a >= 10) return v.toFixed(1)
  if (a >= 1) return v.toFixed(2)
  return v.toPrecision(2)
}

function cell(s: Side, unit: string): string {
  return `${num(s.value)} ${unit}${s.p99 !== undefined ? ` (p99 ${num(s.p99)})` : ""}`
}

export function goalText(f: Pick<Figure, "goal" | "unit">): string {
  switch (f.goal.kind) {
    case "ratio-max":
      return `≤ ${f.goal.limit}×`
    case "ratio-min":
      return `≥ ${f.goal.limit}×`
    case "growth-max":
      return `growth ≤ ${f.goal.limit} ${f.unit}`
  }
}

function ratioText(f: Figure): string {
  if (f.goal.kind === "growth-max") {
    const growth = f.ours.value - f.floor.value
    return `${growth < 0 ? "−" : "+"}${num(Math.abs(growth))} ${f.unit}`
  }
  return `${f.ratio >= 0.1 ? f.ratio.toFixed(2) : f.ratio.toPrecision(2)}×`
}

export function rows(figures: Figure[]): string[][] {
  return figures.map((f) => [
    f.figure,
    cell(f.ours, f.unit),
    cell(f.floor, f.unit),
    ratioText(f),
    goalText(f),
    f.holds ? "yes" : "NO",
  ])
}

const HEAD = ["figure", "ours", "floor", "ratio", "goal", "holds"]

export function textTable(figures: Figure[]): string {
  const all = [HEAD, ...rows(figures)]
  const widths = HEAD.map((_, i) => Math.max(...all.map((r) => r[i].length)))
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()
  return [line(HEAD), widths.map((w) => "-".repeat(w)).join("  "), ...rows(figures).map(line)].join("\n")
}

export function markdownTable(figures: Figure[]): string {
  return [`| ${HEAD.join(" | ")} |`, `|${HEAD.map(() => "---").join("|")}|`, ...rows(figures).map((r) => `| ${r.join(" | ")} |`)].join("\n")
}

export interface RunInfo {
  mode: "full" | "quick"
  startedAt: string
  seconds: number
  node: string
  cpus: number
  loadAverage: number[]
}

export function writeJson(file: string, info: RunInfo, figures: Figure[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, JSON.stringify({ ...info, figures }, null, 2) + "\n")
}

export function machine(): Pick<RunInfo, "node" | "cpus" | "loadAverage"> {
  return { node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))) }
}

/** The correctness checks that failed, as "figure: what" lines (any of them makes the bench exit 1). */
export function failedCorrectness(figures: readonly Figure[]): string[] {
  return figures.flatMap((f) => (f.checks ?? []).filter((c) => c.correctness && !c.ok).map((c) => `${f.figure}: ${c.what}`))
}
