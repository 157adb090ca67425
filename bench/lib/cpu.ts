/**
 * CPU time spent by the bench's processes between two readings, for the per-request CPU notes of the HTTP figures: a
 * rate says how fast, CPU per request says where the time went (the server, its Postgres backends, the worker), and
 * shows a regression in one process even when the machine's speed hides it in the rate. Read with pidusage (on Linux
 * from /proc/<pid>/stat, in clock ticks of 10 ms: meaningful over a flood, not for one request).
 */
import pidusage from "pidusage"

/** Named groups of process ids, e.g. { server: [pid], postgres: [backend pids] }. */
export type ProcessGroups = Record<string, number[]>
/** CPU milliseconds so far, per group, per process. */
export type CpuReading = Record<string, Map<number, number>>

async function cpuMs(pid: number): Promise<number | undefined> {
  try {
    return (await pidusage(pid)).ctime
  } catch {
    return undefined // exited (a pool connection closed): its time since the last reading is lost, and small
  }
}

/** Reads every process of every group; list the groups afresh for each reading (backends come and go). */
export async function readCpu(groups: ProcessGroups): Promise<CpuReading> {
  const out: CpuReading = {}
  for (const [name, pids] of Object.entries(groups)) {
    out[name] = new Map()
    for (const pid of new Set(pids)) {
      const ms = await cpuMs(pid)
      if (ms !== undefined) out[name].set(pid, ms)
    }
  }
  return out
}

/** CPU milliseconds each group spent between two readings; a process first seen in `after` counts from its start. */
export function cpuSpent(before: CpuReading, after: CpuReading): Record<string, number> {
  const spent: Record<string, number> = {}
  for (const [name, pids] of Object.entries(after)) {
    let ms = 0
    for (const [pid, now] of pids) ms += Math.max(0, now - (before[name]?.get(pid) ?? 0))
    spent[name] = ms
  }
  return spent
}

/** CPU spent per phase of a figure (summed over its rounds), and the units (requests, callbacks) it was spent on. */
export class CpuTally {
  private readonly phases = new Map<string, { units: number; ms: Record<string, number> }>()

  /** `groups` lists the processes afresh for each reading. */
  constructor(private readonly groups: () => Promise<ProcessGroups>) {}

  /** Runs `run` between two readings and books what each group spent on `units(result)` units of `phase`. */
  async during<T>(phase: string, run: () => Promise<T>, units: (result: T) => number): Promise<T> {
    const before = await readCpu(await this.groups())
    const result = await run()
    const spent = cpuSpent(before, await readCpu(await this.groups()))
    const tally = this.phases.get(phase) ?? { units: 0, ms: {} }
    tally.units += units(result)
    for (const [name, ms] of Object.entries(spent)) tally.ms[name] = (tally.ms[name] ?? 0) + ms
    this.phases.set(phase, tally)
    return result
  }

  /** Microseconds of CPU per unit of `phase`, per group (NaN before any unit). */
  perUnitMicros(phase: string): Record<string, number> {
    const tally = this.phases.get(phase)
    if (!tally) return {}
    return Object.fromEntries(Object.entries(tally.ms).map(([name, ms]) => [name, (ms * 1000) / tally.units]))
  }
}
