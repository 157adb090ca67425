/**
 * Ids for the rows the callback route writes on every genuine callback (`pnecb_<ULID>`, the shape Medusa's
 * `generateEntityId` gives every model id).
 *
 * Why not `generateEntityId`: its `ulid()` asks `crypto.randomBytes(1)` once per character, 16 system calls per id,
 * which was 6 % of the route's CPU under a callback flood (bench "callbacks/s", profiled). The same `ulid` library
 * with a generator that draws from a 4 KiB buffer of `crypto.randomFillSync` gives ids of the same form and the same
 * randomness source, refilled one system call per 256 ids.
 */
import { randomFillSync } from "node:crypto"
import { factory } from "ulid"

const POOL = Buffer.alloc(4096)
let at = POOL.length

/** A uniform number in [0, 1) from the buffered crypto bytes (ulid picks a character with floor(n * 32)). */
function bufferedCryptoRandom(): number {
  if (at >= POOL.length) {
    randomFillSync(POOL)
    at = 0
  }
  return POOL[at++] / 256
}

const ulid = factory(bufferedCryptoRandom)

export function rowId(prefix: string): string {
  return `${prefix}_${ulid()}`
}
