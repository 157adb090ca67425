/**
 * Shared by the payout routes: the acting admin, the Idempotency-Key header, and how errors become responses —
 * 400 `{ type: "invalid_data", field, message }` naming the field, 404 / 409 with a message, never a stack or a
 * card number (messages are scrubbed).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { scrub } from "../../../../gateway/scrub"
import { idempotencyKeySchema } from "../../../../core/payouts/payout-request"

export const actorOf = (req: AuthenticatedMedusaRequest) => `user:${req.auth_context?.actor_id ?? "unknown"}`

export function idempotencyKey(req: AuthenticatedMedusaRequest): { ok: true; key: string } | { ok: false; message: string } {
  const raw = req.headers["idempotency-key"]
  const parsed = idempotencyKeySchema.safeParse(Array.isArray(raw) ? raw[0] : raw)
  return parsed.success ? { ok: true, key: parsed.data } : { ok: false, message: parsed.error.issues[0].message }
}

export function invalid(res: MedusaResponse, field: string, message: string) {
  res.status(400).json({ type: "invalid_data", field, message })
}

const STATUS: Record<string, number> = {
  [MedusaError.Types.INVALID_DATA]: 400,
  [MedusaError.Types.NOT_ALLOWED]: 400,
  [MedusaError.Types.NOT_FOUND]: 404,
  [MedusaError.Types.CONFLICT]: 409,
  [MedusaError.Types.DUPLICATE_ERROR]: 409,
}

/** Maps a workflow error to a response; unknown errors are rethrown to Medusa's handler (500). */
export function sendError(res: MedusaResponse, e: unknown): void {
  const type = (e as { type?: string })?.type
  const status = type ? STATUS[type] : undefined
  if (!status) throw e
  const message = scrub(String((e as Error).message ?? ""))
  if (status === 400) {
    const m = /^([a-z_.]+): /.exec(message)
    return invalid(res, m ? m[1] : "body", message)
  }
  res.status(status).json({ type: status === 404 ? "not_found" : "conflict", message })
}
