/**
 * The one js-sdk client for the plugin's admin extensions. Widgets and pages talk to the plugin's
 * `/admin/payneteasy/*` routes and Medusa's own admin routes through it (session auth, as the dashboard logs in),
 * with @tanstack/react-query on top (hooks under ./hooks) as Medusa's admin docs recommend.
 */
import Medusa from "@medusajs/js-sdk"

export const sdk = new Medusa({
  baseUrl: import.meta.env.VITE_BACKEND_URL || "/",
  debug: import.meta.env.DEV,
  auth: { type: "session" },
})
