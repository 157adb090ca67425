/**
 * Provider options (medusa-config `providers[].options`), validated with zod at boot by `validateOptions`.
 * Messages name the option and say what to put there, because the reader is a store owner editing medusa-config.ts.
 * `privateKey` may be PEM text or a path to a PEM file; it is resolved (read) once at construction, never logged.
 */
import { readFileSync } from "node:fs"
import { z } from "zod"
import { currencyExponent, PaynetEasyClient, toMinorUnits, type GatewayConfig } from "../../gateway"
import { gatewayTelemetry } from "./gateway-telemetry"

const url = (name: string, hint: string) =>
  z
    .string({ error: `${name} is required: ${hint}` })
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v), { message: `${name} must be an http(s) URL: ${hint}` })

const nonEmpty = (name: string, hint: string) =>
  z.string({ error: `${name} is required: ${hint}` }).trim().min(1, { message: `${name} must not be empty: ${hint}` })

const idString = (name: string) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => /^[0-9]+$/.test(v), { message: `${name} must be the numeric id from your PaynetEasy account, e.g. "1111"` })

const positiveMs = (name: string, path = `timeouts.${name}`) =>
  z.number({ error: `${path} must be a number of milliseconds` }).int().positive({
    message: `${path} must be a positive number of milliseconds`,
  })

/**
 * Payouts (money leaving the shop): off unless configured. `currencies` lists the ISO 4217 codes payouts may use;
 * `maxAmount` gives each of them its per-payout limit as a decimal string ("1000.00"). A request above the limit or in
 * another currency is refused before anything is sent to the gateway.
 */
const payoutsOptionSchema = z
  .object({
    currencies: z
      .array(z.string().trim().toUpperCase(), { error: 'payouts.currencies must list ISO 4217 codes, e.g. ["EUR"]' })
      .min(1, { message: 'payouts.currencies must list at least one ISO 4217 code, e.g. ["EUR"]' }),
    maxAmount: z.record(z.string(), z.string(), {
      error: 'payouts.maxAmount must map each payout currency to its per-payout limit, e.g. { EUR: "1000.00" }',
    }),
  })
  .superRefine((p, ctx) => {
    const limits = Object.fromEntries(Object.entries(p.maxAmount).map(([k, v]) => [k.trim().toUpperCase(), v]))
    for (const code of p.currencies) {
      try {
        currencyExponent(code)
      } catch {
        ctx.addIssue({ code: "custom", path: ["currencies"], message: `payouts.currencies: "${code}" is not an ISO 4217 currency code` })
        continue
      }
      const limit = limits[code]
      if (limit === undefined) {
        ctx.addIssue({ code: "custom", path: ["maxAmount", code], message: `payouts.maxAmount.${code} is required: the largest single payout in ${code}, e.g. "1000.00"` })
        continue
      }
      try {
        if (toMinorUnits(limit, code) <= 0n) throw new Error("zero")
      } catch {
        ctx.addIssue({ code: "custom", path: ["maxAmount", code], message: `payouts.maxAmount.${code} must be a positive decimal string with at most ${currencyExponent(code)} decimals` })
      }
    }
    for (const code of Object.keys(limits)) {
      if (!p.currencies.includes(code)) {
        ctx.addIssue({ code: "custom", path: ["maxAmount", code], message: `payouts.maxAmount.${code} is set but ${code} is not in payouts.currencies` })
      }
    }
  })
  .transform((p) => ({
    currencies: p.currencies,
    maxAmount: Object.fromEntries(Object.entries(p.maxAmount).map(([k, v]) => [k.trim().toUpperCase(), v.trim()])),
  }))

export type PayoutOptions = z.output<typeof payoutsOptionSchema>

export const optionsSchema = z
  .object({
    baseUrl: url("baseUrl", 'the gateway base URL including its path prefix, e.g. "https://sandbox.payneteasy.com/paynet"'),
    endpointId: idString("endpointId").optional(),
    endpointGroupId: idString("endpointGroupId").optional(),
    login: nonEmpty("login", "the merchant login PaynetEasy gave you"),
    controlKey: nonEmpty("controlKey", "the merchant control key (a secret) PaynetEasy gave you"),
    privateKey: z.string().trim().min(1, { message: "privateKey must be PEM text or a path to a PEM file" }).optional(),
    capture: z
      .enum(["manual", "automatic"], { error: 'capture must be "manual" (preauth, capture later) or "automatic" (sale)' })
      .default("manual"),
    flow: z
      .enum(["hosted", "direct"], { error: 'flow must be "hosted" (gateway payment page) or "direct" (card fields posted to your backend)' })
      .default("hosted"),
    backendUrl: url("backendUrl", 'the public URL of this Medusa backend (callback and return addresses), e.g. "https://api.myshop.com"'),
    storefrontReturnUrl: url("storefrontReturnUrl", 'where shoppers land after paying, e.g. "https://myshop.com/checkout/result"').optional(),
    orderDescription: z
      .string({ error: 'orderDescription must be text: what the shopper reads on the payment page, e.g. "Order at My Shop"' })
      .trim()
      .min(1, { message: 'orderDescription must not be empty: what the shopper reads on the payment page, e.g. "Order at My Shop"' })
      .max(125, { message: "orderDescription must be at most 125 characters (the gateway's order_desc)" })
      .optional(),
    timeouts: z
      .object({
        connectMs: positiveMs("connectMs").optional(),
        headersMs: positiveMs("headersMs").optional(),
        bodyMs: positiveMs("bodyMs").optional(),
      })
      .optional(),
    /**
     * How long the gateway may go on processing a money request whose reply was lost before "STATUS does not show it"
     * makes it an attention item (money-request.ts); meanwhile it stays pending and STATUS is asked again.
     */
    processingWindowMs: positiveMs("processingWindowMs", "processingWindowMs").optional(),
    payouts: payoutsOptionSchema.optional(),
    // A card payout asks PAN eligibility first (core/payouts/eligibility.ts); false for an account without it.
    panEligibility: z.boolean({ error: "panEligibility must be true (ask PAN eligibility before a card payout) or false (the account lacks it)" }).default(true),
    signatureMethods: z
      .record(z.string(), z.enum(["HMAC-SHA1", "RSA-SHA256"], { error: 'signatureMethods values must be "HMAC-SHA1" or "RSA-SHA256"' }))
      .optional(),
  })
  .superRefine((o, ctx) => {
    if (!o.endpointId === !o.endpointGroupId) {
      ctx.addIssue({
        code: "custom",
        path: ["endpointId"],
        message: "set exactly one of endpointId or endpointGroupId (both are numeric ids from your PaynetEasy account)",
      })
    }
  })

export type PaynetEasyOptionsInput = z.input<typeof optionsSchema>
export type PaynetEasyOptions = z.output<typeof optionsSchema>

/** Validates options and returns them parsed; throws an Error listing every problem in store-owner language. */
export function parseOptions(raw: unknown): PaynetEasyOptions {
  const result = optionsSchema.safeParse(raw ?? {})
  if (result.success) {
    return result.data
  }
  const lines = result.error.issues.map((i) => {
    const path = i.path.join(".")
    return `- ${path && !i.message.startsWith(path) ? `${path}: ` : ""}${i.message}`
  })
  throw new Error(`PaynetEasy payment provider options are invalid (medusa-config.ts, payment module providers):\n${lines.join("\n")}`)
}

/** PEM text is used as is; anything else is treated as a file path and read. The key never appears in errors. */
export function resolvePrivateKey(value: string | undefined): string | undefined {
  if (!value) {
    return undefined
  }
  if (value.includes("-----BEGIN")) {
    return value
  }
  try {
    return readFileSync(value, "utf8")
  } catch (e) {
    throw new Error(
      `PaynetEasy option privateKey is neither PEM text nor a readable file (${(e as NodeJS.ErrnoException).code ?? "read error"} for the given path)`
    )
  }
}

/**
 * The gateway client for provider options (raw medusa-config options or already parsed ones), built exactly as the
 * provider builds its own — for code outside the provider (reconciliation jobs) that must ask the same gateway.
 * The caller owns the client: close() it when done.
 */
export function clientFromOptions(options: unknown): PaynetEasyClient {
  return clientForOptions(parseOptions(options))
}

/**
 * The gateway client configuration of parsed options (secrets included: for a client, or for the doctor's connection
 * check, which builds its own short-timeout client from it; never for a response). Every such client is traced and
 * measured (gateway-telemetry.ts), at no cost while no OpenTelemetry SDK is registered.
 */
export function gatewayConfigOf(o: PaynetEasyOptions): GatewayConfig {
  return {
    baseUrl: o.baseUrl,
    endpointId: o.endpointId,
    endpointGroupId: o.endpointGroupId,
    login: o.login,
    controlKey: o.controlKey,
    privateKeyPem: resolvePrivateKey(o.privateKey),
    signatureMethods: o.signatureMethods as GatewayConfig["signatureMethods"],
    timeouts: o.timeouts,
    observer: gatewayTelemetry,
  }
}

/** The gateway client for options already parsed by parseOptions (the provider parses its options once). */
export function clientForOptions(o: PaynetEasyOptions): PaynetEasyClient {
  return new PaynetEasyClient(gatewayConfigOf(o))
}
