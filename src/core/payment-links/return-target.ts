/**
 * Where the shopper's return from the gateway's page goes for a session of an order's payment collection (a payment
 * link): to the page that started it. Sessions the plugin's own page started (`data.paymentLink = "plugin"`) go back
 * to that page, which shows the receipt; others to the storefront's return page, told which collection and order.
 * Both addresses come from the server's configuration, never from session data, so no value a storefront wrote can
 * make the return route an open redirect. Pure.
 */

export const PAYMENT_LINK_KEY = "paymentLink"
export type PaymentLinkOrigin = "plugin" | "storefront"

/**
 * The plugin's page of a payment link, as the dashboard's link reaches it with `storefrontUrl` = `{backend}/payneteasy`;
 * `backendUrl` "" gives the address relative to the backend (the return route's redirect).
 */
export const pluginLinkPage = (backendUrl: string, collectionId: string, orderId?: string) =>
  `${backendUrl.replace(/\/+$/, "")}/payneteasy/payment-collection/${encodeURIComponent(collectionId)}` +
  (orderId ? `?order_id=${encodeURIComponent(orderId)}` : "")

export function linkReturnTarget(input: {
  origin: unknown
  collectionId: string
  orderId?: string
  storefrontReturnUrl?: string
}): { url: string; addQuery: boolean } {
  if (input.origin === "plugin" || !input.storefrontReturnUrl) {
    return { url: pluginLinkPage("", input.collectionId, input.orderId ?? ""), addQuery: false }
  }
  return { url: input.storefrontReturnUrl, addQuery: true }
}
