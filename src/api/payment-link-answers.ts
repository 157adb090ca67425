/**
 * The HTTP status a refused payment link is answered with, shared by the store routes and the plugin's page: a link
 * that does not exist (or is not an order's) is 404; one that is paid, expired or owes nothing is 409 in words.
 */
import type { PaymentLinkView } from "../core/payment-links/link-view"

export const missingLink = (view: Pick<PaymentLinkView, "state" | "why">) =>
  view.state === "not_an_order" || (view.state === "expired" && view.why === "not_found")

export const refusalStatus = (view: Pick<PaymentLinkView, "state" | "why">): number => (missingLink(view) ? 404 : 409)
