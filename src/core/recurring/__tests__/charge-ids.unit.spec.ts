/**
 * The charges reconciliation asks STATUS about (core/recurring/charge-ids.ts): the next number first, then numbers skipped.
 */
import fc from "fast-check"
import { expectedChargeIds } from "../charge-ids"

const ROW = "pnerp_01ABC"

describe("expectedChargeIds", () => {
  it("asks for charge 1 when none is recorded, and the next one after those recorded", () => {
    expect(expectedChargeIds(ROW, [])).toEqual([`${ROW}-c1`])
    expect(expectedChargeIds(ROW, [`${ROW}-c1`, `${ROW}-c2`])).toEqual([`${ROW}-c3`])
  })

  it("then the numbers never recorded below the highest, newest first, within the bound", () => {
    expect(expectedChargeIds(ROW, [`${ROW}-c2`, `${ROW}-c5`])).toEqual([`${ROW}-c6`, `${ROW}-c4`, `${ROW}-c3`])
    expect(expectedChargeIds(ROW, [`${ROW}-c5`], 2)).toEqual([`${ROW}-c6`, `${ROW}-c4`])
  })

  it("ignores other recurring payments' charges, the plain client-orderid and malformed suffixes", () => {
    expect(expectedChargeIds(ROW, [ROW, `${ROW}x-c4`, `pnerp_OTHER-c9`, `${ROW}-c`, `${ROW}-c2b`, ` ${ROW}-c1 `])).toEqual([`${ROW}-c2`])
  })

  it("never asks for a recorded charge, always asks for highest + 1, and stays within the bound", () => {
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 20 }), fc.integer({ min: 1, max: 5 }), (numbers, max) => {
      const asked = expectedChargeIds(ROW, numbers.map((n) => `${ROW}-c${n}`), max)
      expect(asked.length).toBeGreaterThanOrEqual(1)
      expect(asked.length).toBeLessThanOrEqual(max)
      expect(asked[0]).toBe(`${ROW}-c${Math.max(0, ...numbers) + 1}`)
      for (const id of asked) expect(numbers.map((n) => `${ROW}-c${n}`)).not.toContain(id)
    }))
  })
})
