/**
 * Fuzzing every public route and every admin route (with a valid admin token) with fast-check: 200 generated inputs
 * each in npm test, 1,000 in a soak (RELIABILITY_SOAK=1 or RELIABILITY_FUZZ_RUNS) — nasty strings, qs array/object syntax, prototype keys, malformed JSON, wrong content types,
 * near-valid bodies with one field broken, unknown ids. What must hold, per route:
 *   - no response is 5xx (nor a dropped connection);
 *   - refused input changes nothing: the plugin's tables, the payment tables and the sandbox's request and callback
 *     counters are the same before and after the route's batch (every input here is refusable by construction; the
 *     GET routes may answer 200 and still must change nothing);
 *   - the server stays healthy (`GET /health` 200) after all of it.
 * The plan must name every route.ts under src/api (and each method it exports), so a new route fails this spec until
 * it is fuzzed too. A positive control proves the state probe sees a change (an accepted doctor call = one STATUS).
 */
import fc from "fast-check"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { TEST_APP_DIR } from "../integration-tests/helpers/paths"
import { useSandbox } from "../integration-tests/helpers/sandbox"
import { backendUrl } from "../integration-tests/helpers/backend-url"
import { PROVIDER_IDS } from "../integration-tests/helpers/provider-options"
import {
  adminAndEurStore, checkoutToPaymentSession, registerCustomer, storeHeaders, type AdminAuth, type CustomerAuth, type StoreFixture,
} from "../integration-tests/helpers/store"
import { StorePaynetEasyAddCardBody } from "../src/api/store/payneteasy/cards/validators"
import { brokenFrom, enc, formString, jsonish, nastyString, sendAll, type HttpInput, type HttpResult } from "./helpers/fuzz"
import { reconcileTick } from "../integration-tests/helpers/reconcile-tick"
import { markSettled } from "../src/core/reconciliation/watch"
import { routeFiles } from "./helpers/routes"
import { diff, quiet, snapshot, watchedTables } from "./helpers/state"
import { printFigures } from "./helpers/figures"
import { RELIABILITY_SEED } from "./helpers/random"

// npm test: 200 inputs per route (36 routes: about 1.5 minutes; the fixed seed's first 200 of the soak's 1,000).
// RELIABILITY_SOAK=1 or RELIABILITY_FUZZ_RUNS=1000: 1,000 per route, about 5 minutes on a quiet 2-core machine, up to
// 10 on a busy one.
jest.setTimeout(1_200_000)

const sandbox = useSandbox()

const RUNS = Number(process.env.RELIABILITY_FUZZ_RUNS ?? (process.env.RELIABILITY_SOAK === "1" ? 1000 : 200))
const SEED = RELIABILITY_SEED

const CALLBACK_PARAMS = [
  "status", "orderid", "client_orderid", "control", "type", "amount", "merchant_order", "serial-number", "error_message",
  "error_code", "processor-tx-id", "card-ref-id", "last-four-digits", "bin", "descriptor", "original-gate", "currency",
] as const
const ADMIN_QUERY = ["limit", "offset", "status", "outcome", "source", "order_id", "orderid", "client_orderid", "received_from", "received_to", "handled", "method", "fields"] as const

const id = nastyString.filter((s) => s.length > 0 && s.length < 200)
const json = (value: unknown) => JSON.stringify(value) ?? "null"
/** A JSON body: a value, a near-valid one, or bytes that are not JSON at all, sometimes under another content type. */
function jsonBody(nearValid?: fc.Arbitrary<unknown>) {
  const values = nearValid ? fc.oneof(jsonish, nearValid, nearValid) : jsonish
  return fc.oneof(
    { weight: 6, arbitrary: values.map((v) => ({ body: json(v), type: "application/json" })) },
    { weight: 1, arbitrary: nastyString.map((s) => ({ body: s, type: "application/json" })) },
    { weight: 1, arbitrary: formString(["card", "amount", "note", "provider_id"]).map((s) => ({ body: s, type: "application/x-www-form-urlencoded" })) },
    { weight: 1, arbitrary: values.map((v) => ({ body: json(v), type: "text/plain" })) }
  )
}

const BAD_CARD_FIELD = {
  number: ["4444555566661112", "1234", "", "4444 5555 6666 111x", 4444555566661111, "9".repeat(40), null],
  cvv: ["12", "abcd", "", 123, "12345", null],
  expMonth: ["13", "0", "00", "x", "", 12.5, null],
  expYear: ["abcd", "", "123", "20301", null], // a past year is the gateway's to decline, not refusable here
  holder: ["", "x".repeat(300), 42, null],
}
const VALID_CARD = { number: "4444555566661111", cvv: "123", expMonth: "12", expYear: "2031", holder: "Fuzz Shopper" }

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture
    let shopper: CustomerAuth

    beforeAll(async () => {
      ;({ admin, eur } = await adminAndEurStore(api, getContainer()))
      // A logged-in customer with a billing address: a valid add-card request from them would reach the gateway.
      shopper = await registerCustomer(api, eur, "fuzz", { address_1: "1 Fuzz St", city: "Berlin", postal_code: "10117", country_code: "de", phone: "+49301111111" })
    })

    it(`≥${RUNS} generated inputs per route: no 5xx, refused input changes nothing, the server stays healthy`, async () => {
      const container = getContainer()
      // A direct session with no gateway order yet: the card route and the 3-D Secure uploads get real ids too.
      const { session, paymentCollection } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
      // The reconciliation job would ask STATUS for this open session every few seconds whatever the fuzzer does:
      // let it discover the session, then close its watch, so the request counter only moves for what we send.
      await reconcileTick(container)
      await markSettled(container, session.id, "fuzz-fixture")
      const sessionId = fc.oneof({ weight: 3, arbitrary: fc.constant(session.id) }, { weight: 1, arbitrary: id })
      // A payment link's collection id: the fixture's (a cart's collection, so never a payable link: refused in words,
      // nothing asked of the gateway) or a random one (404)
      const collectionId = fc.oneof({ weight: 1, arbitrary: fc.constant(paymentCollection.id as string) }, { weight: 2, arbitrary: id })
      const LINK_QUERY = ["order_id", "lang", "returned", "payment", "reason"] as const
      const LINK_BODY = { order_id: ["", 42, null, "order_x"], provider_id: ["", "pp_other", 42, null] }
      const storeJson = (type: string) => ({ "content-type": type, ...storeHeaders(eur).headers })
      const adminJson = (type: string) => ({ "content-type": type, authorization: admin.headers.authorization })
      const post = (path: fc.Arbitrary<string>, headers: (t: string) => Record<string, string>, near?: fc.Arbitrary<unknown>) =>
        fc.tuple(path, jsonBody(near)).map(([p, b]): HttpInput => ({ method: "POST", path: p, headers: headers(b.type), body: b.body }))
      const adminGet = (path: fc.Arbitrary<string>) =>
        fc.tuple(path, formString(ADMIN_QUERY)).map(([p, q]): HttpInput => ({ method: "GET", path: `${p}?${q}`, headers: adminJson("application/json") }))
      const gatewayGet = (path: string) =>
        formString(CALLBACK_PARAMS).map((q): HttpInput => ({ method: "GET", path: `${path}?${q}` }))
      const gatewayPost = (path: string) =>
        fc.tuple(formString(CALLBACK_PARAMS), fc.constantFrom("application/x-www-form-urlencoded", "application/json", "text/plain"), formString(CALLBACK_PARAMS))
          .map(([body, type, q]): HttpInput => ({ method: "POST", path: q.length % 3 === 0 ? `${path}?${q}` : path, headers: { "content-type": type }, body }))
      const customerGet = (path: fc.Arbitrary<string>) =>
        fc.tuple(path, formString(ADMIN_QUERY)).map(([p, q]): HttpInput => ({ method: "GET", path: `${p}?${q}`, headers: shopper.headers }))
      const del = (path: fc.Arbitrary<string>, headers: Record<string, string>) => path.map((p): HttpInput => ({ method: "DELETE", path: p, headers }))
      const under = (prefix: string, suffix = "") => id.map((x) => `${prefix}${enc(x)}${suffix}`)
      const upload = (kind: string, near: fc.Arbitrary<unknown>) =>
        post(sessionId.map((s) => `/store/payneteasy/3ds/${enc(s)}/${kind}`), storeJson, near)

      const plan: Record<string, fc.Arbitrary<HttpInput>> = {
        "GET /payneteasy/callback": gatewayGet("/payneteasy/callback"),
        "POST /payneteasy/callback": gatewayPost("/payneteasy/callback"),
        "GET /payneteasy/return": gatewayGet("/payneteasy/return"),
        "POST /payneteasy/return": gatewayPost("/payneteasy/return"),
        "POST /store/payneteasy/payment-sessions/:id/card": post(
          sessionId.map((s) => `/store/payneteasy/payment-sessions/${enc(s)}/card`),
          storeJson,
          brokenFrom(VALID_CARD, BAD_CARD_FIELD, ["number", "cvv", "expMonth", "expYear"]).map((card) => ({ card }))
        ),
        // The saved-card charge route, as the logged-in shopper: the fixture session holds no saved card of theirs (404,
        // nothing sent) and random ids are unknown; the bodies are malformed JSON or a broken security code.
        "POST /store/payneteasy/payment-sessions/:id/saved-card": post(
          sessionId.map((s) => `/store/payneteasy/payment-sessions/${enc(s)}/saved-card`),
          (type) => ({ ...shopper.headers, "content-type": type }),
          brokenFrom({ cvv2: "123" }, { cvv2: ["12", "abcd", "", 123, "12345", null] })
        ),
        // A well-formed upload for a session the gateway has no 3-D Secure for is refused too (409), without a request.
        "POST /store/payneteasy/3ds/:session_id/method": upload("method", fc.record({ threeDSCompInd: fc.constantFrom("Y", "N", "U", "X", ""), browser: fc.option(fc.dictionary(nastyString, nastyString, { maxKeys: 3 })) })),
        "POST /store/payneteasy/3ds/:session_id/cres": upload("cres", fc.record({ cRes: nastyString })),
        "POST /store/payneteasy/3ds/:session_id/pares": upload("pares", fc.record({ paRes: nastyString, MD: fc.option(nastyString) })),
        // Payment links (issue 50): the plugin's own page (no key, no auth: the id is the capability) and the store API
        "GET /payneteasy/payment-collection/:id": fc
          .tuple(collectionId, formString(LINK_QUERY))
          .map(([c, q]): HttpInput => ({ method: "GET", path: `/payneteasy/payment-collection/${enc(c)}?${q}` })),
        "POST /payneteasy/payment-collection/:id": fc
          .tuple(collectionId, formString(LINK_QUERY), fc.constantFrom("application/x-www-form-urlencoded", "application/json", "text/plain"), formString(["order_id", "lang", "provider_id"]))
          .map(([c, body, type, q]): HttpInput => ({ method: "POST", path: `/payneteasy/payment-collection/${enc(c)}?${q}`, headers: { "content-type": type }, body })),
        "GET /store/payneteasy/payment-collections/:id": fc
          .tuple(collectionId, formString(LINK_QUERY))
          .map(([c, q]): HttpInput => ({ method: "GET", path: `/store/payneteasy/payment-collections/${enc(c)}?${q}`, headers: storeHeaders(eur).headers })),
        "POST /store/payneteasy/payment-collections/:id/pay": post(
          collectionId.map((c) => `/store/payneteasy/payment-collections/${enc(c)}/pay`),
          storeJson,
          fc.oneof(brokenFrom({ order_id: "order_01", provider_id: PROVIDER_IDS.hosted }, LINK_BODY), fc.record({ card_id: nastyString, cvv2: nastyString }))
        ),
        "GET /store/payneteasy/cards": customerGet(fc.constant("/store/payneteasy/cards")),
        // Only refusable add-card bodies (a valid one registers a verification at the gateway: that is its job). JSON
        // only: a body Medusa does not parse (text/plain, a form) arrives as `{}`, which is a valid request.
        "POST /store/payneteasy/cards": fc
          .oneof(
            jsonish,
            brokenFrom({ return_url: "https://shop.test/cards" }, { return_url: ["ftp://shop.test", "", "javascript:alert(1)", 42, null, `https://${"x".repeat(2100)}`] }),
            fc.record({ return_url: fc.constant("https://shop.test/cards"), card_number: nastyString })
          )
          .filter((v) => !StorePaynetEasyAddCardBody.safeParse(v).success)
          .map((v): HttpInput => ({ method: "POST", path: "/store/payneteasy/cards", headers: { ...shopper.headers, "content-type": "application/json" }, body: json(v) })),
        "DELETE /store/payneteasy/cards/:id": del(under("/store/payneteasy/cards/"), shopper.headers),
        "GET /admin/payneteasy/customers/:id/cards": adminGet(under("/admin/payneteasy/customers/", "/cards")),
        "DELETE /admin/payneteasy/customers/:id/cards/:card_id": del(
          fc.tuple(id, id).map(([c, k]) => `/admin/payneteasy/customers/${enc(c)}/cards/${enc(k)}`),
          { authorization: admin.headers.authorization }
        ),
        "GET /admin/payneteasy/orders/:id/rebill": adminGet(under("/admin/payneteasy/orders/", "/rebill")),
        "POST /admin/payneteasy/orders/:id/rebill": post(
          under("/admin/payneteasy/orders/", "/rebill"),
          adminJson,
          brokenFrom({ card_id: "pnecard_0123456789AB", amount: "1.00" }, { card_id: ["", "card_1", "pnecard_", 42, null], amount: ["0", "-1", "abc", "", 0, -5, "1e3"] })
        ),
        "GET /admin/payneteasy/attention": adminGet(fc.constant("/admin/payneteasy/attention")),
        "POST /admin/payneteasy/attention/:id/handled": post(under("/admin/payneteasy/attention/", "/handled"), adminJson, fc.record({ note: nastyString })),
        "GET /admin/payneteasy/callbacks": adminGet(fc.constant("/admin/payneteasy/callbacks")),
        // Doctor with a valid body asks the gateway (that is its job): only refusable JSON bodies here (a body Medusa
        // does not parse, e.g. text/plain, is `{}` = a valid request; see the positive control below).
        "POST /admin/payneteasy/doctor": fc
          .oneof(
            jsonish.filter((v) => !(v === null || (typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0))),
            fc.record({ provider_id: nastyString.filter((s) => !/^pp_payneteasy(_[A-Za-z0-9_-]+)?$/.test(s.trim())) }),
            fc.record({ provider_id: fc.constant(PROVIDER_IDS.hosted), x: nastyString })
          )
          .map((v): HttpInput => ({ method: "POST", path: "/admin/payneteasy/doctor", headers: adminJson("application/json"), body: json(v) })),
        "GET /admin/payneteasy/orders/:id": adminGet(under("/admin/payneteasy/orders/")),
        "POST /admin/payneteasy/orders/:id/check": post(under("/admin/payneteasy/orders/", "/check"), adminJson),
        "GET /admin/payneteasy/payouts": adminGet(fc.constant("/admin/payneteasy/payouts")),
        "POST /admin/payneteasy/payouts": fc
          .tuple(fc.option(nastyString.filter((s) => /^[\x21-\x7e]{1,100}$/.test(s))), jsonBody(brokenFrom(
            { method: "single", amount: "10.00", currency_code: "EUR", destination: { type: "card", card_number: "4444555566661111" } },
            {
              method: ["", "double", 1, null],
              amount: ["0", "0.00", "-1", "10.001", "1e3", "abc", "", 10, "999999999.00"],
              currency_code: ["", "XXX", "EURO", "usd1", null],
              destination: [{ type: "card", card_number: "4444555566661112" }, { type: "card" }, { type: "moon" }, "card", null, { type: "bank", account_number: "x y" }],
            }
          )))
          .map(([key, b]): HttpInput => ({ method: "POST", path: "/admin/payneteasy/payouts", headers: { ...adminJson(b.type), ...(key ? { "idempotency-key": key } : {}) }, body: b.body })),
        // The payout form's limits and allowed currencies (issue 35): no input of its own, any query ignored.
        "GET /admin/payneteasy/payout-settings": adminGet(fc.constant("/admin/payneteasy/payout-settings")),
        "GET /admin/payneteasy/payouts/:id": adminGet(under("/admin/payneteasy/payouts/")),
        "POST /admin/payneteasy/payouts/:id/confirm": fc
          .tuple(under("/admin/payneteasy/payouts/", "/confirm"), jsonBody(), fc.option(fc.stringMatching(/^[a-z0-9-]{1,40}$/)))
          .map(([p, b, key]): HttpInput => ({ method: "POST", path: p, headers: { ...adminJson(b.type), ...(key ? { "idempotency-key": key } : {}) }, body: b.body })),
        // Recurring payments (issue 14): random filters (a malformed one is a 400 naming it) and random ids (404).
        "GET /admin/payneteasy/recurring-payments": adminGet(fc.constant("/admin/payneteasy/recurring-payments")),
        "POST /admin/payneteasy/recurring-payments/:id/cancel": post(under("/admin/payneteasy/recurring-payments/", "/cancel"), adminJson),
        "POST /admin/payneteasy/recurring-payments/:id/retry": post(under("/admin/payneteasy/recurring-payments/", "/retry"), adminJson),
        // Retry the charge of a past-due subscription (issue 35): random ids (404) and any body; nothing is charged.
        "POST /admin/payneteasy/recurring-payments/:id/retry-charge": post(under("/admin/payneteasy/recurring-payments/", "/retry-charge"), adminJson),
      }

      // The plan covers every route file and every method it exports (a new route must be added here).
      const served = routeFiles("").flatMap((r) => r.methods.map((m) => `${m} ${r.template}`)).sort()
      expect(Object.keys(plan).sort()).toEqual(served)

      const tables = await watchedTables(container)
      expect(tables).toEqual(expect.arrayContaining(["payneteasy_callback", "payment_session"]))
      const failures: string[] = []
      let total = 0
      let fivexx = 0
      let changed = 0
      let route = 0
      for (const [name, arbitrary] of Object.entries(plan)) {
        const inputs = fc.sample(arbitrary, { numRuns: RUNS, seed: SEED + route++ })
        const before = await quiet(container, sandbox(), tables)
        const results: HttpResult[] = await sendAll(backendUrl(), inputs, 4)
        // Callbacks and payouts hand work to subscribers: let anything a request started land before comparing.
        const after = await quiet(container, sandbox(), tables)
        const bad = results.filter((r) => r.status >= 500 || r.status === 0)
        const accepted = results.filter((r) => r.status >= 200 && r.status < 300)
        const mutating = name.startsWith("POST ")
        total += results.length
        fivexx += bad.length
        const changes = diff(before, after)
        if (changes.length) changed++
        for (const b of bad.slice(0, 3)) {
          failures.push(`${name}: ${b.status} for ${JSON.stringify(b.input).slice(0, 400)} → ${b.text.slice(0, 200)}`)
        }
        if (mutating && accepted.length) {
          failures.push(`${name}: ${accepted.length} refusable inputs accepted, e.g. ${accepted[0].input.path} ${accepted[0].input.body?.slice(0, 300)}`)
        }
        if (changes.length) failures.push(`${name}: state changed: ${changes.join("; ")}`)
        const statuses = Object.entries(results.reduce<Record<number, number>>((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {}))
        printFigures({ "fuzz route": name, inputs: results.length, "5xx": bad.length, "state changes": changes.length, statuses: statuses.map(([s, n]) => `${s}×${n}`).join(" ") })
      }

      const health = await fetch(`${backendUrl()}/health`)
      expect(health.status).toBe(200)

      // Positive control: an accepted doctor call asks the gateway once, and the probe sees it.
      const before = await snapshot(container, sandbox(), tables)
      const doctor = await api.post("/admin/payneteasy/doctor", {}, admin)
      expect(doctor.status).toBe(200)
      expect(diff(before, await snapshot(container, sandbox(), tables)).join()).toMatch(/sandbox:requests/)

      printFigures({ "fuzz routes": Object.keys(plan).length, "fuzz inputs": total, "5xx": fivexx, "routes whose state changed": changed, "health after": health.status, seed: SEED })
      expect(failures).toEqual([])
    })
  },
})
