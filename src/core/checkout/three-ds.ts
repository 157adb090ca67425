/**
 * 3-D Secure 2.x "split" uploads for the direct flow (gateway notes §9): after a sale / preauth the browser runs the
 * issuer's 3DS Method (fingerprint) and, when challenged, the ACS returns a CRes (3DS 2) or PaRes (3DS 1) to the
 * storefront. Those results reach the gateway through three operations, all signed with control =
 * sha1(login + client-order-id + orderid + control key) by the client (operations.ts rows TDS_UPLOAD_*):
 *   method → TDS_UPLOAD_METHOD_URL_RESULT (threeDSCompInd Y/N/U, optional browser fingerprint fields)
 *   cres   → TDS_UPLOAD_CRES_RESULT       (cRes)
 *   pares  → TDS_UPLOAD_PARES_RESULT      (paRes, optional MD)
 *
 * The store routes under /store/payneteasy/3ds call the payment module's updatePaymentSession with
 * `data.threeDS = { kind, ... }`; the provider's updatePayment hands that to `uploadThreeDS`, so the gateway
 * credentials never leave the provider. The upload's values are used once and are NOT kept in session data
 * (updatePayment's output replaces the session data, and we build it without `threeDS`).
 * After a CRes / PaRes the transaction continues at the gateway: we poll STATUS until it is final (or shows a DIFFERENT
 * next action), then the provider maps it like any other STATUS (authorized / captured / error / requires_more).
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { UpdatePaymentOutput } from "@medusajs/framework/types"
import { GatewayError, GatewayInputError, type PaynetEasyClient, type RequestFields } from "../../gateway"
import { redirectToOf } from "../../gateway/replies"
import { THREE_DS_OPERATION, threeDSSchema, threeDSUploadRequest, type ThreeDSUpload } from "../../gateway/three-ds-upload"
import { isFinal, isNotFound, pollStatus, type StatusReply } from "../connection/gateway-ops"
import type { NextAction, SessionData } from "./session-data"

export { browserSchema, threeDSUploadFields, threeDSSchema } from "../../gateway/three-ds-upload"
export type { ThreeDSKind, ThreeDSUpload } from "../../gateway/three-ds-upload"

export function parseThreeDS(raw: unknown): ThreeDSUpload {
  const result = threeDSSchema.safeParse(raw)
  if (!result.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid 3-D Secure upload: ${result.error.issues.map((i) => i.message).join("; ")}`)
  }
  return result.data
}

/** The request fields of one upload (without login, which the client adds). */
export function uploadFields(upload: ThreeDSUpload, data: Pick<SessionData, "clientOrderId" | "orderId">): RequestFields {
  return threeDSUploadRequest(upload, data)
}

/**
 * After an answer to `answered` (the session's nextAction, what the shopper just completed): a STATUS is news when
 * it is final, or asks for a next action other than that one.
 */
export function movedOn(answered: NextAction | null | undefined) {
  return (r: StatusReply): boolean => {
    if (isFinal(r)) return true
    const url = redirectToOf(r)?.trim()
    const html = r.html?.trim()
    if (!url && !html) return false
    if (!answered) return true
    return answered.type === "redirect" ? url !== answered.url.trim() : html !== answered.html.trim()
  }
}

/**
 * Sends the upload in `raw.threeDS` for the session in `data`, then returns the refreshed session through `refresh`
 * (the provider's own STATUS mapping), with `threeDS` removed from the data.
 */
export async function uploadThreeDS(
  client: PaynetEasyClient,
  data: SessionData,
  rawUpload: unknown,
  refresh: (data: SessionData) => Promise<UpdatePaymentOutput>
): Promise<UpdatePaymentOutput> {
  const { threeDS: _drop, ...rest } = data as SessionData & { threeDS?: unknown }
  const clean = rest as SessionData
  const upload = parseThreeDS(rawUpload)
  if (clean.flow !== "direct") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "3-D Secure uploads belong to the direct card flow; this session uses the hosted payment page")
  }
  if (!clean.orderId) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "No card payment has been started for this session, so there is no 3-D Secure to answer")
  }
  const op = THREE_DS_OPERATION[upload.kind]
  try {
    await client.request(op, uploadFields(upload, clean))
  } catch (e) {
    if (e instanceof GatewayInputError || isNotFound(e)) {
      const reason = e instanceof GatewayError ? e.gatewayMessage || e.message : (e as Error).message
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `PaynetEasy refused the 3-D Secure ${upload.kind} upload: ${reason}`)
    }
    throw e instanceof Error ? new Error(`PaynetEasy ${op} failed: ${(e as GatewayError).gatewayMessage || e.message}`) : e
  }
  if (upload.kind !== "method") {
    // The answer restarts processing at the gateway; wait (briefly) until it decides or asks for something ELSE:
    // for a moment STATUS may still carry the challenge just answered, which must not be handed back as new.
    await pollStatus(client, { clientOrderId: clean.clientOrderId, orderId: clean.orderId }, movedOn(clean.nextAction))
  }
  return refresh(clean)
}
