/**
 * Middlewares for this plugin's routes.
 * - /payneteasy/callback and /payneteasy/return: the gateway and the shopper's browser send form-urlencoded bodies
 *   (parsed by Medusa's default body parser); we keep the raw body too (`preserveRawBody`) because it is what the
 *   provider's getWebhookActionAndData receives as `rawData`. Neither path is under /store or /admin, so Medusa adds
 *   no publishable-key check, no authentication and no CORS (F/http/router.ts) — the gateway has none of those.
 */
import { authenticate, defineMiddlewares } from "@medusajs/framework/http"

export default defineMiddlewares({
  routes: [
    { matcher: "/payneteasy/callback", methods: ["GET", "POST"], bodyParser: { preserveRawBody: true, sizeLimit: "64kb" } },
    { matcher: "/payneteasy/return", methods: ["POST", "GET"], bodyParser: { preserveRawBody: true, sizeLimit: "64kb" } },
    // Payouts: admin users only (session, bearer token or secret API key), small JSON bodies.
    {
      matcher: "/admin/payneteasy/payouts*",
      middlewares: [authenticate("user", ["session", "bearer", "api-key"])],
      bodyParser: { sizeLimit: "16kb" },
    },
  ],
})
