/**
 * Smoke test of the integration harness: the test app boots with this plugin loaded from source, the payment module
 * lists the three PaynetEasy registrations, and the admin API (real login) reports them. If this fails, every other
 * integration spec would fail for the same reason — read this one first.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules } from "@medusajs/framework/utils"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { backendUrl } from "../helpers/backend-url"
import { createAdminUser, seedStore, type AdminAuth } from "../helpers/store"

jest.setTimeout(240_000)

const sandbox = useSandbox()

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
    })

    it("serves the app on the port the harness reserved (the provider's backendUrl)", async () => {
      const res = await fetch(`${backendUrl()}/health`)
      expect(res.status).toBe(200)
      expect(sandbox().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    })

    it("registers pp_payneteasy_payneteasy, _direct and _auto in the payment module", async () => {
      const payment = getContainer().resolve(Modules.PAYMENT)
      const providers = await payment.listPaymentProviders({})
      const ids = providers.map((p: { id: string }) => p.id)
      expect(ids).toEqual(expect.arrayContaining(Object.values(PROVIDER_IDS)))
    })

    it("lists the provider through the admin API with a real admin login", async () => {
      const res = await api.get("/admin/payments/payment-providers?limit=100", admin)
      expect(res.status).toBe(200)
      const ids = res.data.payment_providers.map((p: { id: string }) => p.id)
      expect(ids).toContain(PROVIDER_IDS.hosted)
    })

    it("seeds a store whose region offers the provider to the storefront", async () => {
      const store = await seedStore(getContainer())
      const res = await api.get(`/store/payment-providers?region_id=${store.regionId}`, {
        headers: { "x-publishable-api-key": store.publishableKey },
      })
      const ids = res.data.payment_providers.map((p: { id: string }) => p.id)
      expect(ids).toEqual(expect.arrayContaining(Object.values(PROVIDER_IDS)))
    })

    it("serves the plugin's own routes from source (src/api, no publishable key needed)", async () => {
      const missing = await fetch(`${backendUrl()}/payneteasy/no-such-route`)
      expect(missing.status).toBe(404)
      // The callback route answers a request with no parameters itself (as malformed), it is not a 404 from Express.
      const callback = await fetch(`${backendUrl()}/payneteasy/callback`)
      expect(callback.status).toBe(400)
      expect(await callback.text()).toMatch(/^malformed callback: missing status, orderid, client_orderid, control, type/)
    })

    it("refuses the admin API without a token (the admin helper's token is what opens it)", async () => {
      const res = await api.get("/admin/payments/payment-providers").catch((e: any) => e.response)
      expect(res.status).toBe(401)
    })
  },
})
