/**
 * Authentication sweep. Every admin route the plugin serves (enumerated from src/api/admin/payneteasy/**\/route.ts and
 * the methods each exports) answers 401 without a token and something other than 401 with a valid admin token (so the
 * 401 comes from authentication, not from the route being missing). Store routes (src/api/store/payneteasy/**) refuse
 * a request without the publishable key, and answer 404 for a session id that does not exist. Routes under a
 * `customers` / `cards` segment (customer-owned data) must answer 401 without a logged-in customer and 404 for another
 * customer's ids: customer B asks every customer-owned store route with customer A's saved card id and gets 404, and A's
 * card is unchanged afterwards. The card row is written through the plugin's module (a fixture: what is tested is the
 * routes' ownership check, not how a card is saved — saved-cards.spec.ts covers that).
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { TEST_APP_DIR } from "../integration-tests/helpers/paths"
import { useSandbox } from "../integration-tests/helpers/sandbox"
import { backendUrl } from "../integration-tests/helpers/backend-url"
import { adminAndEurStore, registerCustomer, storeHeaders, type AdminAuth, type StoreFixture } from "../integration-tests/helpers/store"
import { PAYNETEASY_MODULE } from "../src/modules/payneteasy"
import { PROVIDER_IDS } from "../integration-tests/helpers/provider-options"
import { fillTemplate, routeFiles } from "./helpers/routes"
import { printFigures } from "./helpers/figures"

jest.setTimeout(300_000)

useSandbox()

async function call(method: string, path: string, headers: Record<string, string> = {}) {
  const hasBody = method !== "GET" && method !== "DELETE"
  const res = await fetch(`${backendUrl()}${path}`, {
    method,
    headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...headers },
    body: hasBody ? "{}" : undefined,
    redirect: "manual",
  })
  const text = await res.text()
  return { status: res.status, text }
}

const CUSTOMER_OWNED = /\/(customers|me|cards|saved-cards|saved-card)(\/|$)/

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture

    beforeAll(async () => {
      ;({ admin, eur } = await adminAndEurStore(api, getContainer()))
    })

    it("every /admin/payneteasy/* route: 401 without a token, not 401 with one", async () => {
      const routes = routeFiles("admin/payneteasy")
      // The enumeration sees the routes the README documents (a broken walk would find none and pass vacuously).
      expect(routes.map((r) => r.template)).toEqual(
        expect.arrayContaining(["/admin/payneteasy/callbacks", "/admin/payneteasy/payouts", "/admin/payneteasy/orders/:id/check"])
      )
      const failures: string[] = []
      let checks = 0
      for (const route of routes) {
        expect(route.methods.length).toBeGreaterThan(0)
        for (const method of route.methods) {
          const path = fillTemplate(route.template, "does_not_exist_01")
          const anonymous = await call(method, path)
          const forged = await call(method, path, { authorization: "Bearer not.a.token" })
          const authed = await call(method, path, { authorization: admin.headers.authorization })
          checks += 3
          if (anonymous.status !== 401) failures.push(`${method} ${path} without token → ${anonymous.status}`)
          if (forged.status !== 401) failures.push(`${method} ${path} with a forged token → ${forged.status}`)
          if (authed.status === 401 || authed.status >= 500) failures.push(`${method} ${path} with a token → ${authed.status}`)
        }
      }
      printFigures({
        "admin routes swept": routes.reduce((n, r) => n + r.methods.length, 0),
        "auth checks": checks,
        "admin auth failures": failures.length,
      })
      expect(failures).toEqual([])
    })

    it("store routes: refused without the publishable key, 404 for an unknown session; customer-owned routes need the customer", async () => {
      const routes = routeFiles("store/payneteasy")
      expect(routes.length).toBeGreaterThan(0)
      const failures: string[] = []
      let customerOwned = 0
      for (const route of routes) {
        for (const method of route.methods) {
          const path = fillTemplate(route.template, "payses_does_not_exist_01")
          const noKey = await call(method, path)
          if (noKey.status < 400 || noKey.status >= 500) failures.push(`${method} ${path} without publishable key → ${noKey.status}`)
          const keyed = await call(method, path, storeHeaders(eur).headers)
          if (CUSTOMER_OWNED.test(route.template)) {
            customerOwned++
            if (keyed.status !== 401) failures.push(`${method} ${path} without a customer → ${keyed.status}`)
          } else if (keyed.status !== 404 && keyed.status !== 400) {
            // 400: the body `{}` is refused before the lookup; an unknown id with a valid body is checked below.
            failures.push(`${method} ${path} unknown id → ${keyed.status}`)
          }
        }
      }
      // Valid bodies with an unknown session id: 404, not 400, not 5xx.
      const card = { card: { number: "4444555566661111", cvv: "123", expMonth: "12", expYear: "2031", holder: "A B" } }
      const unknownCard = await api
        .post("/store/payneteasy/payment-sessions/payses_does_not_exist_01/card", card, storeHeaders(eur))
        .catch((e: any) => e.response)
      if (unknownCard.status !== 404) failures.push(`card on an unknown session → ${unknownCard.status}`)
      const unknownCres = await api
        .post("/store/payneteasy/3ds/payses_does_not_exist_01/cres", { cRes: "abc" }, storeHeaders(eur))
        .catch((e: any) => e.response)
      if (unknownCres.status !== 404) failures.push(`cres on an unknown session → ${unknownCres.status}`)
      printFigures({
        "store routes swept": routes.reduce((n, r) => n + r.methods.length, 0),
        "customer-owned store routes": customerOwned,
        "store auth failures": failures.length,
      })
      expect(failures).toEqual([])
    })
  
    it("one customer's saved card ids are 404 to another customer on every customer-owned store route, and change nothing", async () => {
      const [owner, other] = [await registerCustomer(api, eur, "owner"), await registerCustomer(api, eur, "other")]
      const service = getContainer().resolve(PAYNETEASY_MODULE) as any
      const card = await service.createPaynetEasySavedCards({
        customer_id: owner.id, provider_id: PROVIDER_IDS.hosted, state: "active", card_ref_id: "sweep-ref-1",
        card_ref_version: "v2", brand: "VISA", bin: "444455", last4: "1111", exp_month: "12", exp_year: "2031",
        holder: "Owner", source: "checkout",
      })
      const owned = routeFiles("store/payneteasy").filter((r) => CUSTOMER_OWNED.test(r.template))
      expect(owned.length).toBeGreaterThan(0)
      const failures: string[] = []
      let checks = 0
      for (const route of owned) {
        for (const method of route.methods) {
          if (!route.template.includes(":")) {
            // A collection route: the other customer's listing must not show the owner's card.
            if (method === "GET") {
              const list = await call(method, route.template, other.headers)
              checks++
              if (list.status !== 200 || list.text.includes(card.id)) failures.push(`${method} ${route.template} as another customer → ${list.status} ${list.text.slice(0, 120)}`)
            }
            continue
          }
          const res = await call(method, fillTemplate(route.template, card.id), other.headers)
          checks++
          if (res.status !== 404) failures.push(`${method} ${route.template} with another customer's card → ${res.status}`)
        }
      }
      const [after] = await service.listPaynetEasySavedCards({ id: card.id }, { withDeleted: true })
      expect(after.deleted_at).toBeNull()
      // Positive control: the owner sees the card, so the 404s above are about ownership, not a broken fixture.
      const mine = await call("GET", "/store/payneteasy/cards", owner.headers)
      expect(mine.status).toBe(200)
      expect(JSON.parse(mine.text).cards.map((c: { id: string }) => c.id)).toEqual([card.id])
      printFigures({ "cross-customer checks": checks, "cross-customer failures": failures.length })
      expect(checks).toBeGreaterThanOrEqual(2)
      expect(failures).toEqual([])
    })
  },
})
