/**
 * The demo's storefront: two pages built only from the storefront kit (src/storefront, the package's
 * `medusa-payment-payneteasy/storefront` entries), with the browser code in shop-client.tsx bundled by esbuild on
 * first request:
 * - SHOP_PATH: one product; the payment step offers the region's PaynetEasy methods — the gateway's hosted page, the
 *   card form with 3-D Secure (when a direct-flow registration is configured), and for a signed-in customer saved
 *   cards and "save this card";
 * - STOREFRONT_RETURN_PATH (the providers' storefrontReturnUrl; the plugin's return route sends the shopper here with
 *   cart_id): the kit's return page, which completes the cart (the gateway's callback may have made the order already)
 *   and shows the order, or the decline with "Try again".
 * - PAYMENT_LINK_PATH (`/payment-collection/:id?order_id=…`, what Medusa's "Copy payment link" copies with the admin's
 *   storefrontUrl set to the shop's origin): the kit's payment-collection page (`PaymentLinkPage`), which pays what an
 *   order still owes on the hosted page; the return page sends a link's return back to it.
 * The demo app serves them on its own origin (scripts/demo/app.ts); the storefront browser tests serve them from a
 * separate origin with `startShopServer`, as a real storefront is.
 */
import http from "node:http"
import path from "node:path"

export const SHOP_PATH = "/payneteasy-demo/shop"
export const STOREFRONT_RETURN_PATH = "/payneteasy-demo/thank-you"
export const SHOP_SCRIPT_PATH = "/payneteasy-demo/shop.js"
/** The kit's payment-collection page: `/payment-collection/<collection id>` (the dashboard link's path). */
export const PAYMENT_LINK_PATH = /^\/payment-collection\/[A-Za-z0-9_-]+$/

export interface ShopConfig {
  /** The Medusa backend; "" = the page's own origin (the demo app serves the shop itself). */
  backendUrl?: string
  publishableKey: string
  regionId: string
  salesChannelId: string
  variantId: string
  shippingOptionId: string
  currency: string
  countryCode: string
  /** The hosted-page registration. */
  providerId: string
  /** A direct-flow registration (card form on the page), if the app has one. */
  directProviderId?: string
  price: string
  adminUrl?: string
}

let config: ShopConfig | undefined

/** Set once the demo has seeded its store; until then the shop page says it is not ready. */
export function setShopConfig(c: ShopConfig): void {
  config = c
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const CARDS_TABLE = `
<table>
  <tr><th>Card number</th><th>CVV2</th><th>What the sandbox does</th></tr>
  <tr><td>4444 5555 6666 1111</td><td>123</td><td>approves</td></tr>
  <tr><td>4444 5555 6666 1111</td><td>321</td><td>asks for 3-D Secure (the password is shown on that page), then approves</td></tr>
  <tr><td>4444 5555 6666 1111</td><td>111</td><td>approves without 3-D Secure</td></tr>
  <tr><td>4444 5555 6666 1111</td><td>101 / 116 / 119 / 209</td><td>declines (expired / insufficient funds / not permitted / stolen)</td></tr>
  <tr><td>4444 5555 6666 1111</td><td>217</td><td>stays unknown (reconciliation follows it)</td></tr>
</table>
<p class="note">Any future expiry date and any name on the card.</p>`

const STYLE = `<style>
body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
button{font-size:1rem;padding:.5rem 1rem;border-radius:.4rem;border:0;background:#111827;color:#fff;cursor:pointer}
button:disabled{opacity:.5}label{display:block;margin:.4rem 0}.method svg{vertical-align:middle}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #d1d5db;padding:.3rem .6rem;text-align:left}
.note{color:#6b7280}.pne-status-declined,.pne-status-error,[role=alert]{color:#b91c1c}
</style>`

function page(which: "shop" | "return" | "link", c: ShopConfig | undefined): string {
  const title = which === "shop" ? "PaynetEasy demo shop" : which === "link" ? "PaynetEasy demo — payment link" : "PaynetEasy demo — result"
  if (!c) return `<!doctype html><title>${title}</title>${STYLE}<p>The demo is still setting up; reload in a moment.</p>`
  const client = { ...c, shopPath: SHOP_PATH, backendUrl: c.backendUrl ?? "" }
  const admin = c.adminUrl
    ? `<p class="note">Afterwards see the order in the <a href="${esc(c.adminUrl)}/orders">admin</a> (PaynetEasy panel on the order page).</p>`
    : ""
  // a payment link's address is the capability to pay it: sent to no other site
  const referrer = which === "link" ? `<meta name="referrer" content="no-referrer">` : ""
  return `<!doctype html><html><head><meta charset="utf-8">${referrer}<title>${title}</title>${STYLE}</head><body>
<div id="root" data-page="${which}"></div>
${which === "shop" ? `<h2>Test cards</h2>${CARDS_TABLE}${admin}` : ""}
<script>window.__PAYNETEASY_SHOP__ = ${JSON.stringify(client).replace(/</g, "\\u003c")};</script>
<script src="${SHOP_SCRIPT_PATH}"></script></body></html>`
}

export const shopPageHtml = (c = config) => page("shop", c)
export const thankYouHtml = (c = config) => page("return", c)
export const paymentLinkHtml = (c = config) => page("link", c)

const KIT = path.join(__dirname, "..", "..", "src", "storefront")
let bundled: Promise<string> | undefined

/**
 * The shop's browser bundle (shop-client.tsx with React, the js-sdk and the kit from src/storefront), built once per
 * process. The kit is imported by its package name, as a store would; the build points that name at the sources.
 */
export function shopScript(): Promise<string> {
  bundled ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const esbuild = require("esbuild") as typeof import("esbuild")
    const result = await esbuild.build({
      entryPoints: [path.join(__dirname, "shop-client.tsx")],
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2020",
      jsx: "automatic",
      minify: true,
      define: { "process.env.NODE_ENV": '"production"' },
      plugins: [{
        name: "kit-from-source",
        setup(build) {
          build.onResolve({ filter: /^medusa-payment-payneteasy\/storefront(\/react)?$/ }, (a) => ({
            path: path.join(KIT, a.path.endsWith("/react") ? "react/index.ts" : "index.ts"),
          }))
        },
      }],
      logLevel: "warning",
    })
    return result.outputFiles[0].text
  })()
  return bundled
}

type Res = { statusCode?: number; setHeader(k: string, v: string): void; end(b?: string): void }

/** Answers the shop's paths (true), or leaves the request alone (false). */
export function serveShop(url: string | undefined, res: Res, c = config): boolean {
  const p = (url ?? "").split("?")[0]
  const send = (type: string, body: string) => {
    res.setHeader("content-type", type)
    res.end(body)
  }
  if (p === SHOP_PATH) send("text/html; charset=utf-8", shopPageHtml(c))
  else if (p === STOREFRONT_RETURN_PATH) send("text/html; charset=utf-8", thankYouHtml(c))
  else if (PAYMENT_LINK_PATH.test(p)) {
    res.setHeader("cache-control", "no-store")
    send("text/html; charset=utf-8", paymentLinkHtml(c))
  }
  else if (p === SHOP_SCRIPT_PATH) {
    shopScript().then(
      (js) => send("text/javascript; charset=utf-8", js),
      (e) => {
        res.statusCode = 500
        send("text/plain", String(e))
      }
    )
  } else return false
  return true
}

/** The shop on its own origin (a storefront apart from the backend), for the browser tests. */
export async function startShopServer(port: number, getConfig: () => ShopConfig | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (!serveShop(req.url, res, getConfig())) {
      res.statusCode = 404
      res.end("not found")
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve())
  })
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}
