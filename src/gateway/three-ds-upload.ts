/**
 * The three 3-D Secure uploads (upload-method-url-result, upload-cres-result, upload-pares-result) as the plugin sends
 * them: the schema of what a storefront posts (the EMV 3DS names, which are also the gateway's fields) and the builder
 * of each request. Kept here so the wire names are written once (issue 33); the provider's three-ds.ts adds the
 * session checks. No Medusa imports.
 */
import { z } from "zod"
import type { RequestFields } from "./request"

const text = (name: string, max: number) =>
  z.string({ error: `${name} is required` }).trim().min(1, { message: `${name} must not be empty` }).max(max, { message: `${name} is too long` })
const small = z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v)).pipe(z.string().max(2048))

/** Browser fingerprint fields, spelled as the gateway spells them (EMV 3DS names). All optional. */
export const browserSchema = z
  .object({
    browserAcceptHeader: small.optional(),
    browserIP: small.optional(),
    browserJavaEnabled: small.optional(),
    browserJavascriptEnabled: small.optional(),
    browserLanguage: small.optional(),
    browserColorDepth: small.optional(),
    browserScreenHeight: small.optional(),
    browserScreenWidth: small.optional(),
    browserTZ: small.optional(),
    browserUserAgent: small.optional(),
  })
  .strict()

/** The fields of each upload as the storefront posts them (the store routes validate these; the kind is the route's). */
export const threeDSUploadFields = {
  method: z.object({
    threeDSCompInd: z.enum(["Y", "N", "U"], { error: "threeDSCompInd must be Y (completed), N (not completed in 10 s) or U (no method URL)" }),
    threeDSServerTransID: text("threeDSServerTransID", 64).optional(),
    browser: browserSchema.optional(),
  }),
  cres: z.object({ cRes: text("cRes", 16_384) }),
  pares: z.object({ paRes: text("paRes", 16_384), MD: text("MD", 1024).optional() }),
}
export type ThreeDSKind = keyof typeof threeDSUploadFields

export const threeDSSchema = z.discriminatedUnion("kind", [
  threeDSUploadFields.method.extend({ kind: z.literal("method") }),
  threeDSUploadFields.cres.extend({ kind: z.literal("cres") }),
  threeDSUploadFields.pares.extend({ kind: z.literal("pares") }),
])

export type ThreeDSUpload = z.output<typeof threeDSSchema>

/** The operation of each upload kind. */
export const THREE_DS_OPERATION = {
  method: "TDS_UPLOAD_METHOD_URL_RESULT",
  cres: "TDS_UPLOAD_CRES_RESULT",
  pares: "TDS_UPLOAD_PARES_RESULT",
} as const

/** The request fields of one upload for the gateway order (without login, which the client adds). */
export function threeDSUploadRequest(upload: ThreeDSUpload, order: { clientOrderId: string; orderId?: string }): RequestFields {
  const ids = { "client-order-id": order.clientOrderId, orderid: order.orderId }
  switch (upload.kind) {
    case "method":
      return { ...ids, threeDSCompInd: upload.threeDSCompInd, threeDSServerTransID: upload.threeDSServerTransID, ...(upload.browser ?? {}) }
    case "cres":
      return { ...ids, cRes: upload.cRes }
    case "pares":
      return { ...ids, paRes: upload.paRes, MD: upload.MD }
  }
}
