"use server"
// Customer sign-up in dtc-starter's shape: the token lives in the httpOnly cookie only.
import type { HttpTypes } from "@medusajs/types"
import { revalidatePath } from "next/cache"
import { sdk } from "@lib/config"
import { getAuthHeaders, setAuthToken } from "./cookies"

export async function retrieveCustomer(): Promise<HttpTypes.StoreCustomer | null> {
  const headers = await getAuthHeaders()
  if (!headers.authorization) return null
  return sdk.store.customer.retrieve({}, headers).then((r) => r.customer).catch(() => null)
}

export async function signup(countryCode: string, formData: FormData) {
  const email = String(formData.get("email"))
  const password = String(formData.get("password"))
  const registration = await sdk.auth.register("customer", "emailpass", { email, password })
  await sdk.store.customer.create({ email, first_name: "Jane", last_name: "Payer" }, {}, { authorization: `Bearer ${registration}` })
  const token = await sdk.auth.login("customer", "emailpass", { email, password })
  if (typeof token !== "string") throw new Error("login needs another step")
  await setAuthToken(token)
  revalidatePath(`/${countryCode}`)
}
