/** The one table of provider-only session keys covers every key of the session-data schema (provider-keys.ts). */
import { sessionDataSchema } from "../session-data"
import { PROVIDER_ONLY_KEYS, providerKeysCleared } from "../provider-keys"

describe("provider-only session keys", () => {
  it("every key of the session-data schema is in the table, so a new key is cleared from storefront data by construction", () => {
    const missing = Object.keys(sessionDataSchema.shape).filter((k) => !(PROVIDER_ONLY_KEYS as readonly string[]).includes(k))
    expect(missing).toEqual([])
  })

  it("clears exactly the table's keys the storefront sent, and leaves the storefront's own keys", () => {
    const sent = { payer: { email: "a@b.test" }, voided: true, captures: [], orderId: "1", save_card: true }
    expect(providerKeysCleared(sent)).toEqual({ voided: null, captures: null, orderId: null })
    expect(providerKeysCleared(undefined)).toEqual({})
  })
})
