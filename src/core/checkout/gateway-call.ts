/**
 * One gateway call made by the provider, with a tagged result instead of an overloaded helper.
 *
 * `refused`: the gateway answered the request itself with a validation / client error (no transaction exists; for
 * a card request the shopper may retry). Everything else that fails becomes the provider's error for Medusa
 * (errors.ts `wrap`: a MedusaError with the right type, messages already scrubbed by the client).
 */
import { GatewayError, GatewayInputError } from "../../gateway"
import { isNotFound } from "../connection"
import { wrap } from "./errors"

export type GatewayCall<T> =
  | { ok: true; value: T }
  | { ok: false; refused: { code?: string; message: string }; error: GatewayError }

export async function callGateway<T>(op: string, call: () => Promise<T>): Promise<GatewayCall<T>> {
  try {
    return { ok: true, value: await call() }
  } catch (e) {
    if (e instanceof GatewayError && !(e instanceof GatewayInputError) && isNotFound(e)) {
      return { ok: false, refused: { code: e.code, message: e.gatewayMessage || e.message }, error: e }
    }
    throw wrap(op, e)
  }
}

/**
 * The call's value; a refusal is thrown like any other gateway failure (callGateway's refusal is wrapped the same
 * way, so one try is the whole of it: one async layer less on every STATUS, bench "provider authorize").
 */
export async function gatewayValue<T>(op: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (e) {
    throw wrap(op, e)
  }
}
