/**
 * rowId: the callback log's ids keep the form of Medusa's own (`<prefix>_<ULID>`) while drawing randomness from a
 * buffer; these tests would catch a broken generator (wrong alphabet or length, repeats across buffer refills, a
 * biased character choice, time not leading).
 */
import { decodeTime } from "ulid"
import { rowId } from "../row-id"

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{26}$/

describe("rowId", () => {
  it("is <prefix>_<ULID>, with the current time in the ULID", () => {
    const before = Date.now()
    const id = rowId("pnecb")
    const after = Date.now()
    expect(id).toMatch(/^pnecb_/)
    const ulid = id.slice("pnecb_".length)
    expect(ulid).toMatch(CROCKFORD)
    expect(decodeTime(ulid)).toBeGreaterThanOrEqual(before)
    expect(decodeTime(ulid)).toBeLessThanOrEqual(after)
  })

  it("never repeats across many buffer refills, and uses all 32 characters evenly in the random part", () => {
    const n = 20_000 // 16 random characters each: 320,000 draws, 78 refills of the 4 KiB buffer
    const seen = new Set<string>()
    const counts = new Map<string, number>()
    for (let i = 0; i < n; i++) {
      const id = rowId("x")
      seen.add(id)
      for (const c of id.slice(2 + 10)) counts.set(c, (counts.get(c) ?? 0) + 1)
    }
    expect(seen.size).toBe(n)
    expect(counts.size).toBe(32)
    const expected = (n * 16) / 32
    // chi-square with 31 degrees of freedom: p = 0.001 at 61.1
    const chi2 = [...counts.values()].reduce((sum, o) => sum + (o - expected) ** 2 / expected, 0)
    expect(chi2).toBeLessThan(61.1)
  })
})
