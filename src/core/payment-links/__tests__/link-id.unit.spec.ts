/**
 * A payment link's collection id is whatever the address says: an id Medusa could never have made (a NUL byte, which
 * Postgres refuses in a query and the app answered 500: fuzzing, `/payneteasy/payment-collection/%00`) is a link to
 * nothing, decided before any query or lock.
 */
import { payLink, refreshLink } from "../pay-link"

const touched: string[] = []
const container = {
  resolve: (key: string) => {
    touched.push(key)
    return {
      graph: async ({ filters }: { filters: Record<string, unknown> }) => {
        if (JSON.stringify(filters).includes("\\u0000")) throw new Error('invalid byte sequence for encoding "UTF8": 0x00')
        return { data: [] }
      },
      execute: async (key: string, job: () => Promise<unknown>) => {
        if (key.includes("\u0000")) throw new Error('invalid byte sequence for encoding "UTF8": 0x00')
        return job()
      },
    }
  },
} as any

describe("a collection id Medusa could not have made", () => {
  beforeEach(() => (touched.length = 0))

  it.each(["\u0000", "pay_col\u0000x", "x".repeat(300), "a b", "pay/col"])("%j: the page reads nothing and shows a link to nothing", async (id) => {
    const view = await refreshLink(container, id)
    expect(view).toMatchObject({ state: "expired", why: "not_found" })
    expect(touched).toEqual([])
  })

  it("paying it takes no lock and reads nothing: refused as not found", async () => {
    const result = await payLink(container, { collectionId: "\u0000", origin: "plugin" } as any)
    expect(result).toMatchObject({ kind: "refused", state: "expired", view: { why: "not_found" } })
    expect(touched).toEqual([])
  })

  it("a real-looking id is read as usual", async () => {
    const view = await refreshLink(container, "pay_col_01JABCDEF")
    expect(view).toMatchObject({ state: "expired", why: "not_found" })
    expect(touched.length).toBeGreaterThan(0)
  })
})
