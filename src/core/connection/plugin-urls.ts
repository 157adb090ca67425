/**
 * The plugin's own addresses that the gateway and the shopper's browser are sent to, built once from the
 * registration's backendUrl (issue 54: the callback URL was typed in six files). The hosted and direct checkout add
 * their ownership tag to the callback URL (checkout/callback-owner.ts).
 */

const base = (backendUrl: string) => backendUrl.replace(/\/+$/, "")

/** Where the gateway sends its server callbacks (api/payneteasy/callback). */
export const pluginCallbackUrl = (backendUrl: string) => `${base(backendUrl)}/payneteasy/callback`

/** Where the gateway sends the shopper back (api/payneteasy/return). */
export const pluginReturnUrl = (backendUrl: string) => `${base(backendUrl)}/payneteasy/return`
