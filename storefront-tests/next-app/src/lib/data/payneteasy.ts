"use server"
// PaynetEasy (docs/storefront.md step 4): the kit's requests that need the shopper's auth cookie, answered on the server.
import { answerStoreRequest, type StoreRequest } from "medusa-payment-payneteasy/storefront"
import { sdk } from "@lib/config"
import { getAuthHeaders } from "./cookies"

export async function payneteasy(request: StoreRequest) {
  return answerStoreRequest(sdk, request, { headers: await getAuthHeaders() })
}
