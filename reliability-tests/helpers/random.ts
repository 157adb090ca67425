/**
 * The reliability specs' one seeded random source (mulberry32), so a failing sequence can be replayed with
 * RELIABILITY_SEED: the same seed gives the same trials, storms and race interleavings.
 */
export const RELIABILITY_SEED = Number(process.env.RELIABILITY_SEED ?? 20261123)

export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
