/**
 * Direct flow, 3-D Secure when the gateway's STATUS carries only `html` (no `redirect-to`), end to end: the card
 * route answers requires_more with nextAction { type: "html" }; a real Chromium renders that html as a storefront
 * would (page.setContent, nothing clicked: its own script submits the form to the ACS), the shopper answers the
 * challenge, and the cart completes into one order. The sandbox runs with `threeDSRedirectTo: false`.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { Browser } from "playwright-core"
import { launchChromium } from "../../browser-tests/helpers/chromium"
import { answerChallenge } from "../../browser-tests/helpers/shop"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { ordersForCart, waitFor } from "../helpers/inspect"
import { adminAndEurStore, checkoutToPaymentSession, completeCartResponse, storeHeaders, type StoreFixture } from "../helpers/store"

jest.setTimeout(240_000)

const sandbox = useSandbox({ threeDSRedirectTo: false })
const CARD_3DS = { number: "4111111111111111", cvv: "321", expMonth: "12", expYear: "2031", holder: "Html Shopper" }

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let eur: StoreFixture
    let browser: Browser | undefined

    beforeAll(async () => {
      ;({ eur } = await adminAndEurStore(api, getContainer()))
      browser = await launchChromium()
    })

    afterAll(async () => {
      await browser?.close()
    })

    it("html-only next action: rendered in Chromium it reaches the ACS, the challenge passes, one order", async () => {
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
      const res = await api.post(`/store/payneteasy/payment-sessions/${session.id}/card`, { card: CARD_3DS }, storeHeaders(eur))
      const ps = res.data.payment_session
      expect(ps.status).toBe("requires_more")
      expect(ps.data.nextAction.type).toBe("html")
      expect(ps.data.nextAction.url).toBeUndefined()
      expect(ps.data.nextAction.html).toContain("<form")

      const early = await completeCartResponse(api, eur, cart.id)
      expect(early.data.type).not.toBe("order")

      const page = await browser!.newPage()
      try {
        await page.setContent(ps.data.nextAction.html)
        await answerChallenge({ page, sandbox: sandbox() })
        const [gw] = sandbox().control.byClientOrderId(session.id)
        expect((await sandbox().control.waitForOutcome(gw.orderid)).status).toBe("approved")
      } finally {
        await page.close()
      }

      const container = getContainer()
      await waitFor(`order for ${cart.id}`, async () => {
        if ((await ordersForCart(container, cart.id)).length) return true
        return (await completeCartResponse(api, eur, cart.id)).data.type === "order"
      })
      expect(await ordersForCart(container, cart.id)).toHaveLength(1)
      const gw = sandbox().control.byClientOrderId(session.id)
      expect(gw).toHaveLength(1)
      expect(gw[0]).toMatchObject({ status: "approved", authorized: "10.42" })
      expect(sandbox().control.transaction(gw[0].orderid)).toMatchObject({ threeDS: { result: "pass", via: "ACS page" } })
    })
  },
})
