/**
 * Middlewares for this plugin's routes.
 * - /payneteasy/callback and /payneteasy/return: the gateway and the shopper's browser send a query string or a
 *   form-urlencoded body, parsed by Medusa's default body parsers. No route-specific body parser config on purpose:
 *   with one, Medusa looks the route up and writes three debug log lines on every request, whatever the log level,
 *   which was most of what a forged callback cost over /health (bench "forged callbacks/s"); the raw body it could
 *   preserve is not needed (the provider reads the parsed fields, never `rawData`). Neither path is under /store or
 *   /admin, so Medusa adds no publishable-key check, no authentication and no CORS (F/http/router.ts) — the gateway
 *   has none of those.
 * - /admin/payneteasy/*: the dashboard's routes. Medusa's admin authentication (session or bearer; 401 without) and
 *   zod validation of queries and bodies (admin/payneteasy/_lib/validators.ts).
 * - /admin/payneteasy/* and /store/payneteasy/*: request-guard.ts refuses NUL bytes and over-deep query keys (400).
 * - Medusa's store payment-session route (POST /store/payment-collections/:id/payment-sessions*): session data with a
 *   CVV or card number is refused (payment-session-data-guard.ts) before Medusa stores it; so is a new session on a
 *   collection a saved card has paid (409), and so is a new session on any paid or authorized collection
 *   (paid-collection-guard.ts; the admin's POST /admin/payment-collections/:id/payment-sessions too).
 * - POST /store/payneteasy/payment-sessions/:id/saved-card: the logged-in customer; { cvv2 } validated value-free.
 * - Payment links (issue 50): GET /store/payneteasy/payment-collections/:id and POST …/pay for anyone holding the
 *   link (the customer is read when logged in, for a saved card); the body validated value-free. The plugin's own
 *   page, /payneteasy/payment-collection/:id, is outside /store: no publishable key, no CORS, a plain form post.
 * - The store direct-card and 3-D Secure routes: validateAndTransformBody with value-free schemas
 *   (store/payneteasy/validators.ts, value-free-body.ts): a bad PAN / CVV / expiry is a 400 naming the field, never
 *   echoing what was sent.
 */
import { authenticate, defineMiddlewares, validateAndTransformBody, validateAndTransformQuery } from "@medusajs/framework/http"
import {
  AdminPaynetEasyAttentionQuery,
  AdminPaynetEasyCallbacksQuery,
  AdminPaynetEasyDoctorBody,
  AdminPaynetEasyHandledBody,
  AdminPaynetEasyRetryChargeBody,
} from "./admin/payneteasy/_lib/validators"
import { StorePaynetEasyAddCardBody } from "./store/payneteasy/cards/validators"
import { AdminPaynetEasyRebillBody } from "./admin/payneteasy/_lib/saved-card-validators"
import {
  StorePaynetEasyCardBody, StorePaynetEasyPayLinkBody, StorePaynetEasySavedCardBody, StorePaynetEasyThreeDSBody,
} from "./store/payneteasy/validators"
import { refuseUnusableInput } from "./request-guard"
import { refuseCardDataInSessionData, refuseWhilePaidBySavedCard } from "./payment-session-data-guard"
import { refuseNewSessionOnPaidCollection } from "./paid-collection-guard"
import { refuseCaptureOnCanceledOrder, refuseRefundOnCanceledOrder } from "./canceled-order-refund-guard"
import { refuseCancelWhileUnsettled } from "./order-cancel-guard"
import { oneMoneyActionPerOrder, oneMoneyActionPerOrderOfPayment } from "./admin-money-serial"

const adminAuth = authenticate("user", ["session", "bearer", "api-key"])
const customerAuth = authenticate("customer", ["session", "bearer"])
const customerIfAny = authenticate("customer", ["session", "bearer"], { allowUnauthenticated: true })

export default defineMiddlewares({
  routes: [
    { matcher: "/admin/payneteasy*", middlewares: [adminAuth, refuseUnusableInput] },
    { matcher: "/store/payneteasy*", middlewares: [refuseUnusableInput] },
    {
      matcher: "/admin/payneteasy/callbacks",
      methods: ["GET"],
      middlewares: [validateAndTransformQuery(AdminPaynetEasyCallbacksQuery, { isList: true, defaults: ["id"] })],
    },
    {
      matcher: "/admin/payneteasy/attention",
      methods: ["GET"],
      middlewares: [validateAndTransformQuery(AdminPaynetEasyAttentionQuery, { isList: true, defaults: ["id"] })],
    },
    { matcher: "/admin/payneteasy/attention/:id/handled", methods: ["POST"], middlewares: [validateAndTransformBody(AdminPaynetEasyHandledBody)] },
    { matcher: "/admin/payneteasy/doctor", methods: ["POST"], middlewares: [validateAndTransformBody(AdminPaynetEasyDoctorBody)] },
    {
      matcher: "/store/payment-collections/:id/payment-sessions*",
      methods: ["POST"],
      middlewares: [refuseCardDataInSessionData, refuseWhilePaidBySavedCard, refuseNewSessionOnPaidCollection],
    },
    { matcher: "/admin/payment-collections/:id/payment-sessions", methods: ["POST"], middlewares: [refuseNewSessionOnPaidCollection] },
    { matcher: "/admin/payments/:id/refund", methods: ["POST"], middlewares: [adminAuth, oneMoneyActionPerOrderOfPayment, refuseRefundOnCanceledOrder] },
    { matcher: "/admin/payments/:id/capture", methods: ["POST"], middlewares: [adminAuth, oneMoneyActionPerOrderOfPayment, refuseCaptureOnCanceledOrder] },
    { matcher: "/admin/orders/:id/cancel", methods: ["POST"], middlewares: [adminAuth, oneMoneyActionPerOrder, refuseCancelWhileUnsettled] },
    { matcher: "/store/payneteasy/payment-sessions/:id/card", methods: ["POST"], middlewares: [validateAndTransformBody(StorePaynetEasyCardBody)] },
    {
      matcher: "/store/payneteasy/payment-sessions/:id/saved-card",
      methods: ["POST"],
      middlewares: [customerAuth, validateAndTransformBody(StorePaynetEasySavedCardBody)],
    },
    ...(["method", "cres", "pares"] as const).map((kind) => ({
      matcher: `/store/payneteasy/3ds/:session_id/${kind}`,
      methods: ["POST" as const],
      middlewares: [validateAndTransformBody(StorePaynetEasyThreeDSBody[kind])],
    })),
    // Payment links (issue 50): anyone holding the link; a logged-in customer may pay with a saved card they own.
    {
      matcher: "/store/payneteasy/payment-collections/:id/pay",
      methods: ["POST"],
      middlewares: [customerIfAny, validateAndTransformBody(StorePaynetEasyPayLinkBody)],
    },
    // Saved cards (issue 12): the logged-in customer only.
    { matcher: "/store/payneteasy/cards*", middlewares: [customerAuth] },
    { matcher: "/store/payneteasy/cards", methods: ["POST"], middlewares: [validateAndTransformBody(StorePaynetEasyAddCardBody)] },
    { matcher: "/admin/payneteasy/orders/:id/rebill", methods: ["POST"], middlewares: [validateAndTransformBody(AdminPaynetEasyRebillBody)] },
    {
      matcher: "/admin/payneteasy/recurring-payments/:id/retry-charge",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(AdminPaynetEasyRetryChargeBody)],
    },
    // Payouts: small JSON bodies (admin authentication comes from the /admin/payneteasy* entry above).
    { matcher: "/admin/payneteasy/payouts*", bodyParser: { sizeLimit: "16kb" } },
  ],
})
