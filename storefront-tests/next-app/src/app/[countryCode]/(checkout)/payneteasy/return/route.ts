// PaynetEasy (docs/storefront.md step 7): the return from the gateway's (or the bank's) page.
import { createReturnHandler } from "medusa-payment-payneteasy/storefront"
import { sdk } from "@lib/config"
import { getAuthHeaders, removeCartId } from "@lib/data/cookies"

export const GET = createReturnHandler({
  sdk,
  headers: getAuthHeaders,
  onSettled: async (outcome) => {
    if (outcome.type === "order") await removeCartId()
  },
})
