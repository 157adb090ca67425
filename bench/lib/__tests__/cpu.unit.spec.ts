import { CpuTally, cpuSpent, readCpu } from "../cpu"

/** Computes until this process has spent `ms` of CPU time (a wall-clock loop gets little CPU on a loaded machine). */
const busy = (ms: number) => {
  const start = process.cpuUsage()
  const spentMs = () => {
    const d = process.cpuUsage(start)
    return (d.user + d.system) / 1000
  }
  let x = 0
  while (spentMs() < ms) x += Math.sqrt(x + 1)
  return x
}

describe("CPU readings (bench notes)", () => {
  it("reads this process's CPU time, which grows while it computes", async () => {
    const before = await readCpu({ self: [process.pid] })
    busy(120)
    const spent = cpuSpent(before, await readCpu({ self: [process.pid] }))
    expect(spent.self).toBeGreaterThanOrEqual(60)
    expect(spent.self).toBeLessThan(5_000)
  })

  it("counts a process first seen afterwards from its start, drops one that is gone, never goes negative", () => {
    const before = { pg: new Map([[1, 100], [2, 50]]) }
    const after = { pg: new Map([[1, 130], [3, 20]]) }
    expect(cpuSpent(before, after)).toEqual({ pg: 50 })
    expect(cpuSpent({ pg: new Map([[1, 90]]) }, { pg: new Map([[1, 80]]) })).toEqual({ pg: 0 })
  })

  it("leaves out a pid that does not exist", async () => {
    const reading = await readCpu({ none: [2 ** 22 + 12345] })
    expect(reading.none.size).toBe(0)
  })

  it("books each phase's CPU per unit", async () => {
    const tally = new CpuTally(async () => ({ self: [process.pid] }))
    await tally.during("work", async () => busy(100), () => 10)
    const perUnit = tally.perUnitMicros("work").self
    expect(perUnit).toBeGreaterThanOrEqual(5_000) // ≥ 50 ms over 10 units
    expect(tally.perUnitMicros("never")).toEqual({})
  })
})
