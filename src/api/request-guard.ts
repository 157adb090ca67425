/**
 * A guard in front of the plugin's store and admin routes, for input no route can use and that used to reach the
 * database or Medusa's query parser and come back as a 500 (found by reliability-tests/fuzzing.spec.ts):
 * - a NUL byte anywhere in the URL or the JSON body (Postgres text cannot hold one: `invalid message format`);
 * - a query key with more than two dot-separated parts (Medusa's validateAndTransformQuery throws INVALID_ARGUMENT
 *   "Key accessor more than 2 levels deep", which its error handler answers with 500).
 * Both are answered 400 `invalid_data` naming what was wrong; nothing runs after it.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"

const NUL_IN_URL = /%00|\u0000/

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000")
  if (depth > 32 || value === null || typeof value !== "object") return false
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1))
  return Object.entries(value).some(([k, v]) => k.includes("\u0000") || hasNul(v, depth + 1))
}

export function refuseUnusableInput(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const url = req.originalUrl ?? req.url ?? ""
  if (NUL_IN_URL.test(url) || hasNul(req.body)) {
    res.status(400).json({ type: "invalid_data", message: "The request contains a NUL character, which no field accepts" })
    return
  }
  const deep = Object.keys(req.query ?? {}).find((k) => k.split(".").length > 2)
  if (deep !== undefined) {
    res.status(400).json({ type: "invalid_data", message: `Query parameter ${JSON.stringify(deep.slice(0, 100))} is not accepted (at most one "." in a name)` })
    return
  }
  next()
}
