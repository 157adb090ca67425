/**
 * The demo's tiny storefront, served by the demo app itself (same origin as the store API, so no CORS set-up):
 * - GET /payneteasy-demo/shop: one product and a "Pay" button. The page's script does what a storefront does with
 *   Medusa's store API and the publishable key — cart → shipping method → payment collection → PaynetEasy payment
 *   session with the payer's details — and sends the browser to the sandbox's hosted payment page, where a person
 *   types a test card (listed on the page and in docs/dashboard.md).
 * - GET /payneteasy-demo/thank-you (the provider's storefrontReturnUrl; the plugin's return route sends the shopper
 *   here with cart_id): completes the cart (idempotent: the gateway's callback may have made the order already) and
 *   shows the order, or the gateway's reason when the payment was declined.
 * No card data ever touches this page or the backend: the card is typed on the gateway's page.
 */
export const SHOP_PATH = "/payneteasy-demo/shop"

export interface ShopConfig {
  publishableKey: string
  regionId: string
  salesChannelId: string
  variantId: string
  shippingOptionId: string
  currency: string
  countryCode: string
  providerId: string
  price: string
  adminUrl: string
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
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#111827;color:#fff;cursor:pointer}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #d1d5db;padding:.3rem .6rem;text-align:left}
.note{color:#6b7280}#status{margin-top:1rem}
</style>`

export function shopPageHtml(): string {
  if (!config) return `<!doctype html><title>PaynetEasy demo shop</title>${STYLE}<p>The demo is still setting up; reload in a moment.</p>`
  const c = config
  return `<!doctype html><html><head><meta charset="utf-8"><title>PaynetEasy demo shop</title>${STYLE}</head><body>
<h1>PaynetEasy demo shop</h1>
<p>One demo product for <b>${esc(c.price)} ${esc(c.currency.toUpperCase())}</b>. Pressing Pay creates a cart through Medusa's store API
and sends you to the gateway sandbox's hosted payment page.</p>
<p><label>Email <input id="email" value="shopper@payneteasy.demo" size="30"></label></p>
<button id="pay">Pay ${esc(c.price)} ${esc(c.currency.toUpperCase())}</button>
<div id="status" class="note"></div>
<h2>Test cards</h2>${CARDS_TABLE}
<p class="note">Afterwards see the order in the <a href="${esc(c.adminUrl)}/orders">admin</a> (PaynetEasy panel on the order page) and
the <a href="${esc(c.adminUrl)}/payneteasy">PaynetEasy page</a>.</p>
<script>
const C = ${JSON.stringify({ ...c })};
const H = { "content-type": "application/json", "x-publishable-api-key": C.publishableKey };
const status = (t) => (document.getElementById("status").textContent = t);
async function call(path, body) {
  const r = await fetch(path, { method: "POST", headers: H, body: JSON.stringify(body || {}), credentials: "include" });
  const j = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error((j && j.message) || ("HTTP " + r.status));
  return j;
}
document.getElementById("pay").onclick = async () => {
  const email = document.getElementById("email").value.trim();
  const address = { first_name: "Demo", last_name: "Shopper", address_1: "1 Demo Street", city: "Berlin",
    postal_code: "10115", country_code: C.countryCode, phone: "+49301234567" };
  try {
    status("Creating the cart…");
    const { cart } = await call("/store/carts", { region_id: C.regionId, sales_channel_id: C.salesChannelId, email,
      currency_code: C.currency, items: [{ variant_id: C.variantId, quantity: 1 }], shipping_address: address, billing_address: address });
    await call("/store/carts/" + cart.id + "/shipping-methods", { option_id: C.shippingOptionId });
    const { payment_collection } = await call("/store/payment-collections", { cart_id: cart.id });
    status("Registering the payment with the gateway…");
    const payer = { email, first_name: "Demo", last_name: "Shopper", phone: address.phone, address_1: address.address_1,
      city: address.city, postal_code: address.postal_code, country_code: address.country_code };
    const res = await call("/store/payment-collections/" + payment_collection.id + "/payment-sessions", { provider_id: C.providerId, data: { payer } });
    const session = res.payment_collection.payment_sessions.find((s) => s.provider_id === C.providerId);
    status("Off to the payment page…");
    location.href = session.data.redirectUrl;
  } catch (e) { status("Could not start the payment: " + e.message); }
};
</script></body></html>`
}

export function thankYouHtml(): string {
  const key = config?.publishableKey ?? ""
  return `<!doctype html><html><head><meta charset="utf-8"><title>PaynetEasy demo — result</title>${STYLE}</head><body>
<h1>Payment result</h1><div id="status">Confirming your payment with the gateway…</div>
<p><a href="${SHOP_PATH}">Back to the shop</a>${config ? ` · <a href="${esc(config.adminUrl)}/orders">admin</a>` : ""}</p>
<script>
const q = new URLSearchParams(location.search);
const cartId = q.get("cart_id");
const status = (t) => (document.getElementById("status").textContent = t);
async function complete(tries) {
  if (!cartId) return status("No cart in the address: was this page opened by the payment page's return?");
  const r = await fetch("/store/carts/" + cartId + "/complete", { method: "POST", headers: { "content-type": "application/json", "x-publishable-api-key": ${JSON.stringify(key)} }, body: "{}" });
  const j = await r.json().catch(() => ({}));
  if (r.ok && j.type === "order") return status("Thank you! Order #" + j.order.display_id + " is placed (" + j.order.id + ").");
  if (r.status === 409 && tries > 0) return setTimeout(() => complete(tries - 1), 1000);
  const s = await fetch("/store/carts/" + cartId + "?fields=*payment_collection.payment_sessions", { headers: { "x-publishable-api-key": ${JSON.stringify(key)} } }).then((x) => x.json()).catch(() => ({}));
  const session = ((s.cart && s.cart.payment_collection && s.cart.payment_collection.payment_sessions) || [])[0];
  if (session && session.status === "pending" && tries > 0) { status("The gateway is still processing…"); return setTimeout(() => complete(tries - 1), 2000); }
  if (session && session.status === "error") return status("The payment was declined: " + ((session.data.error && session.data.error.message) || "no reason given") + ". Try another card from the shop.");
  status("The payment is not confirmed: " + ((j && j.message) || ("HTTP " + r.status)));
}
complete(10);
</script></body></html>`
}
