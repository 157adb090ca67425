// The cart and auth cookies, httpOnly and SameSite=Strict as dtc-starter sets them (src/lib/data/cookies.ts).
import { cookies as nextCookies } from "next/headers"

const STRICT = { httpOnly: true, sameSite: "strict" as const, secure: false, maxAge: 60 * 60 * 24 * 7, path: "/" }

export const getAuthHeaders = async (): Promise<{ authorization: string } | Record<string, never>> => {
  const token = (await nextCookies()).get("_medusa_jwt")?.value
  return token ? { authorization: `Bearer ${token}` } : {}
}
export const setAuthToken = async (token: string) => (await nextCookies()).set("_medusa_jwt", token, STRICT)
export const getCartId = async () => (await nextCookies()).get("_medusa_cart_id")?.value
export const setCartId = async (cartId: string) => (await nextCookies()).set("_medusa_cart_id", cartId, STRICT)
export const removeCartId = async () => (await nextCookies()).set("_medusa_cart_id", "", { maxAge: -1, path: "/" })
