/**
 * The one table that describes the PaynetEasy server-to-server API.
 *
 * Every row of the seed's endpoint table (shared/seed/000_afe838b095039de6.txt) is here: its path and
 * version, how it is authenticated, the terms of its `control` checksum, the request fields the seed and
 * the gateway notes name, and the zod schema of its successful response. The client, the CLI and the
 * sandbox all read this table; nothing restates it.
 *
 * Where the seed is silent we chose, and said so in a comment on the row:
 * - CARDINFO ("not shown"): control = login + cardrefid + key (gateway notes §6.2, php-library GetCardInfoQuery).
 * - PAYMENTFORM ("not shown"): signed like sale-form (endpoint + client_orderid + amount + email + key).
 * - PAYOUTFORM ("not shown"): OAuth; the vendor docs disagree (HMAC-SHA1 on .eu, RSA-SHA256 on .com, notes §10),
 *   so the default is HMAC-SHA1, like the v2 payout, and `signatureMethods` in the client config overrides it.
 * - PAYOUT_V4_PAY ("not shown"): RSA-SHA256 like every other v4 row.
 *
 * This file imports nothing from @medusajs/*.
 */
import { z } from "zod"

export type SignatureMethod = "HMAC-SHA1" | "RSA-SHA256"

/** How a request is authenticated: a `control` checksum, or an OAuth 1.0a signature. */
export type AuthScheme = { kind: "control" } | { kind: "oauth"; method: SignatureMethod }

/**
 * One term of a `control` checksum, in order. The merchant control key always ends the string and is
 * not listed.
 * - endpoint: the endpoint id, or the endpoint group id when the URL uses `/group/<id>`.
 * - login: the merchant login from the configuration.
 * - field: the trimmed value of a request field; an absent field contributes "" (that is how the seed's
 *   "orderid (empty string if absent)" for STATUS and "amount and currency only when sent" for
 *   CAPTURE / RETURN both come out).
 * - amountMinor: the request's `amount` (major units, decimal string) in minor units of its `currency`,
 *   by integer arithmetic; "" when no amount is sent.
 */
export type ControlTerm =
  | { kind: "endpoint" }
  | { kind: "login" }
  | { kind: "field"; name: string }
  | { kind: "amountMinor" }

const endpoint: ControlTerm = { kind: "endpoint" }
const login: ControlTerm = { kind: "login" }
const amountMinor: ControlTerm = { kind: "amountMinor" }
const field = (name: string): ControlTerm => ({ kind: "field", name })

/**
 * Reply values are text: ids arrive as numbers in some JSON replies and strings in others (notes §2), and
 * parseGatewayBody (parse.ts) already writes every top-level number as text, exactly as sent. So the schemas are plain
 * strings: a union with a transform per field cost ten times as much on every gateway call once a process had parsed
 * a few different schemas (bench "gateway call"; zod's shared parse functions go megamorphic).
 */
const id = z.string()
const optionalId = id.optional()
const str = z.string()
const optionalStr = z.string().optional()

/** Final and non-final transaction statuses (notes §4): THE status list (statuses.ts reads it). */
export const FINAL_STATUSES = ["approved", "declined", "error", "filtered"] as const
export const NON_FINAL_STATUSES = ["processing", "unknown", "chain_declined"] as const
/** Every wire status we know, plus the explicit "other" that any unlisted value parses as (never final). */
export const GATEWAY_STATUSES = [...FINAL_STATUSES, ...NON_FINAL_STATUSES, "other"] as const
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number]
const KNOWN_STATUSES = new Set<string>([...FINAL_STATUSES, ...NON_FINAL_STATUSES])

/** The wire `status` as an enum value: trimmed, lower-cased, anything unlisted (or missing) is "other". */
export function parseGatewayStatus(status: unknown): GatewayStatus {
  const s = typeof status === "string" || typeof status === "number" ? String(status).trim().toLowerCase() : ""
  return KNOWN_STATUSES.has(s) ? (s as GatewayStatus) : "other"
}
// `.overwrite`, not `.transform`: the same value, but as a check inside the string schema rather than a pipe after it,
// a quarter of the cost on every reply (bench "gateway call").
const wireStatus = z.string().overwrite(parseGatewayStatus) as unknown as z.ZodType<GatewayStatus, string>
const optionalWireStatus = wireStatus.optional()

/** AsyncResponse: the acknowledgement of sale, preauth, capture, return, void, rebill, payouts, 3DS uploads. */
export const asyncResponse = z.looseObject({
  type: z.literal("async-response"),
  "serial-number": optionalStr,
  "merchant-order-id": optionalId,
  "paynet-order-id": optionalId,
  "end-point-id": optionalId,
  status: optionalWireStatus,
})

/** AsyncCheckoutFormRedirect: the hosted page address for the *-form operations. */
export const asyncFormResponse = z.looseObject({
  type: z.literal("async-form-response"),
  "serial-number": optionalStr,
  "merchant-order-id": optionalId,
  "paynet-order-id": optionalId,
  "redirect-url": str,
  status: optionalWireStatus,
})

/** StatusResponse: the transaction as the gateway sees it now. `html` / `redirect-to` mean the payer must act (3DS). */
export const statusResponse = z.looseObject({
  type: z.literal("status-response"),
  status: wireStatus,
  "serial-number": optionalStr,
  "merchant-order-id": optionalId,
  "paynet-order-id": optionalId,
  amount: optionalStr,
  currency: optionalStr,
  "transaction-type": optionalStr,
  "order-stage": optionalStr,
  html: optionalStr,
  "redirect-to": optionalStr,
  "error-message": optionalStr,
  "error-code": optionalStr,
  "card-ref-id": optionalStr,
  "last-four-digits": optionalStr,
  bin: optionalStr,
  "card-type": optionalStr,
})

export const cardRefResponse = z.looseObject({
  type: z.literal("create-card-ref-response"),
  status: optionalWireStatus,
  "card-ref-id": id,
  "serial-number": optionalStr,
})

export const cardRefV4Response = cardRefResponse.extend({
  "unq-card-ref-id": optionalStr,
  "recurring-payment-id": optionalStr,
})

export const cardInfoResponse = z.looseObject({
  type: z.literal("get-card-info-response"),
  "card-printed-name": optionalStr,
  "expire-year": optionalStr,
  "expire-month": optionalStr,
  bin: optionalStr,
  "last-four-digits": optionalStr,
  "card-type": optionalStr,
  "serial-number": optionalStr,
})

export const createRecurringPaymentResponse = z.looseObject({
  type: optionalStr,
  "recurring-payment-id": id,
  // a recurring payment's own state, not a transaction status: kept as the gateway wrote it
  status: optionalStr,
  "serial-number": optionalStr,
})

/**
 * update-recurring-payment's reply (doc.payneteasy.com …/api_v4_update-recurring-payment.html): a synchronous command
 * whose response the page does not tabulate; its sibling process-recurring-payments documents `type`
 * (`process-recurring-payment-response` | validation-error | error), `status` and `serial-number`, so this reads the
 * same shape (type `update-recurring-payment-response`). An error reply never reaches this schema (errorResponse).
 */
export const updateRecurringPaymentResponse = z.looseObject({
  type: optionalStr,
  "recurring-payment-id": optionalStr,
  // a recurring payment's own state, not a transaction status: kept as the gateway wrote it
  status: optionalStr,
  "serial-number": optionalStr,
})

/** Both error shapes: `type=validation-error|error` with the gateway's code and message (notes §3, §12). */
export const errorResponse = z.looseObject({
  type: z.enum(["validation-error", "error"]),
  "error-message": optionalStr,
  "error-code": optionalStr,
  "serial-number": optionalStr,
  "merchant-order-id": optionalId,
  "paynet-order-id": optionalId,
})

/**
 * get-balance (by endpoint or by manager). The vendor pages show the reply as a JSON list; parseGatewayBody gives a
 * top-level list as `balance-list` (parse.ts). A legacy form reply is one balance, flat. Values may be JSON numbers
 * (`"balance-amount":29.99`): read as text by replies.ts `balancesOf`, never as a double in arithmetic.
 */
export const balanceResponse = z.looseObject({
  // no type is documented for this reply; an error reply (type validation-error / error) never reaches the schema
  type: optionalStr,
  "balance-list": z.array(z.looseObject({})).optional(),
  "balance-amount": optionalStr,
})

export interface OperationSpec {
  /** The seed's operation name (or ours for the rows it leaves unnamed). */
  name: string
  /** Path below the base URL, without the endpoint: `/api/v2/sale`. The client appends `/<id>` or `/group/<id>`. */
  path: string
  version: "v2" | "v4" | "3ds/v1"
  auth: AuthScheme
  /** Control terms in order (control-authenticated operations only). */
  control?: readonly ControlTerm[]
  /** Request fields the client refuses to send without (the seed's and the notes' required core). */
  required: readonly string[]
  /** Groups of alternatives: exactly one field of each group is sent (a card by reference or by number). */
  oneOf?: readonly (readonly string[])[]
  /** Other request fields the seed or notes name. Fields not listed are passed through unchanged. */
  optional: readonly string[]
  /** Whether the request can move money or create state (a card reference, a registered payout, an eligibility
   *  check): such a request is never re-sent blindly. Only pure reads (STATUS, CARDINFO) and the 3DS uploads,
   *  which answer an existing challenge, are false. */
  movesMoney: boolean
  /** What follows the path: the configured endpoint (or group) by default; "login" puts the configured login there
   *  instead (get-balance by manager: `/api/v2/get-balance/manager/<manager login>`), and needs no endpoint. */
  target?: "endpoint" | "login"
  /** The merchant order id field's spelling for this operation (the docs are inconsistent, notes §5.3). */
  clientOrderIdField: "client_orderid" | "client-order-id" | "client-orderid" | null
  response: z.ZodType<Record<string, unknown>>
}

const SALE_LIKE_REQUIRED = [
  "client_orderid", "order_desc", "amount", "currency", "address1", "city", "zip_code", "country",
  "phone", "email", "ipaddress",
] as const
const PAYER_OPTIONAL = [
  "first_name", "last_name", "middle_name", "ssn", "birthday", "state", "cell_phone", "site_url",
  "server_callback_url", "notify_url", "redirect_url", "redirect_success_url", "redirect_fail_url",
  "merchant_data", "destination", "preferred_language",
] as const
const CARD_FIELDS = ["card_printed_name", "credit_card_number", "expire_month", "expire_year", "cvv2"] as const
const SALE_CONTROL = [endpoint, field("client_orderid"), amountMinor, field("email")] as const
const TDS_CONTROL = [login, field("client-order-id"), field("orderid")] as const
const TDS_REQUIRED = ["login", "client-order-id", "orderid"] as const
const HMAC = { kind: "oauth", method: "HMAC-SHA1" } as const
const RSA = { kind: "oauth", method: "RSA-SHA256" } as const
const CONTROL = { kind: "control" } as const

const op = <S extends OperationSpec>(s: S) => s

export const OPERATIONS = {
  SALE: op({
    name: "SALE", path: "/api/v2/sale", version: "v2", auth: CONTROL, control: SALE_CONTROL,
    required: [...SALE_LIKE_REQUIRED, ...CARD_FIELDS, "redirect_url"], optional: PAYER_OPTIONAL,
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  PREAUTH: op({
    name: "PREAUTH", path: "/api/v2/preauth", version: "v2", auth: CONTROL, control: SALE_CONTROL,
    required: [...SALE_LIKE_REQUIRED, ...CARD_FIELDS, "redirect_url"], optional: PAYER_OPTIONAL,
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  SALEFORM: op({
    name: "SALEFORM", path: "/api/v2/sale-form", version: "v2", auth: CONTROL, control: SALE_CONTROL,
    required: [...SALE_LIKE_REQUIRED, "redirect_url"], optional: PAYER_OPTIONAL,
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncFormResponse,
  }),
  PREAUTHFORM: op({
    name: "PREAUTHFORM", path: "/api/v2/preauth-form", version: "v2", auth: CONTROL, control: SALE_CONTROL,
    required: [...SALE_LIKE_REQUIRED, "redirect_url"], optional: PAYER_OPTIONAL,
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncFormResponse,
  }),
  ACCOUNT_VERIFICATION: op({
    name: "ACCOUNT_VERIFICATION", path: "/api/v2/account-verification", version: "v2", auth: CONTROL,
    control: [endpoint, field("client_orderid"), field("email")],
    required: ["client_orderid", "order_desc", "address1", "city", "zip_code", "country", "phone", "email",
      "ipaddress", ...CARD_FIELDS], optional: [...PAYER_OPTIONAL, "currency"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  ACCOUNT_VERIFICATION_FORM: op({
    name: "ACCOUNT_VERIFICATION_FORM", path: "/api/v2/account-verification-form", version: "v2", auth: CONTROL,
    control: [endpoint, field("client_orderid"), field("email")],
    required: ["client_orderid", "order_desc", "address1", "city", "zip_code", "country", "phone", "email",
      "ipaddress", "redirect_url"], optional: [...PAYER_OPTIONAL, "currency"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncFormResponse,
  }),
  PAYMENTFORM: op({
    // Auth "not shown" in the seed: signed like sale-form (our choice; see the file header).
    name: "PAYMENTFORM", path: "/api/v2/payment-form", version: "v2", auth: CONTROL, control: SALE_CONTROL,
    required: [...SALE_LIKE_REQUIRED, "redirect_url"], optional: PAYER_OPTIONAL,
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncFormResponse,
  }),
  CAPTURE: op({
    name: "CAPTURE", path: "/api/v2/capture", version: "v2", auth: CONTROL,
    control: [login, field("client_orderid"), field("orderid"), amountMinor, field("currency")],
    required: ["login", "client_orderid", "orderid"], optional: ["amount", "currency", "comment"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  RETURN: op({
    name: "RETURN", path: "/api/v2/return", version: "v2", auth: CONTROL,
    control: [login, field("client_orderid"), field("orderid"), amountMinor, field("currency")],
    required: ["login", "client_orderid", "orderid"], optional: ["amount", "currency", "comment"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  VOID: op({
    name: "VOID", path: "/api/v2/void", version: "v2", auth: CONTROL,
    control: [login, field("client_orderid"), field("orderid")],
    required: ["login", "client_orderid", "orderid"], optional: ["comment"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  STATUS: op({
    name: "STATUS", path: "/api/v2/status", version: "v2", auth: CONTROL,
    control: [login, field("client_orderid"), field("orderid")],
    required: ["login", "client_orderid"], optional: ["orderid", "by-request-sn"],
    movesMoney: false, clientOrderIdField: "client_orderid", response: statusResponse,
  }),
  CARDREF: op({
    name: "CARDREF", path: "/api/v2/create-card-ref", version: "v2", auth: CONTROL,
    control: [login, field("client_orderid"), field("orderid")],
    required: ["login", "client_orderid", "orderid"], optional: [],
    movesMoney: true, clientOrderIdField: "client_orderid", response: cardRefResponse,
  }),
  CARDINFO: op({
    // Auth "not shown" in the seed: login + cardrefid + key (notes §6.2).
    name: "CARDINFO", path: "/api/v2/get-card-info", version: "v2", auth: CONTROL,
    control: [login, field("cardrefid")],
    required: ["login", "cardrefid"], optional: [],
    movesMoney: false, clientOrderIdField: null, response: cardInfoResponse,
  }),
  REBILL: op({
    name: "REBILL", path: "/api/v2/make-rebill", version: "v2", auth: CONTROL,
    control: [login, field("client_orderid"), field("cardrefid"), amountMinor, field("currency")],
    required: ["login", "client_orderid", "cardrefid", "amount", "currency", "order_desc", "ipaddress"],
    optional: ["cvv2", "comment", "enumerate_amounts", "recurrent_scenario", "server_callback_url", "redirect_url"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  PAYOUT: op({
    name: "PAYOUT", path: "/api/v2/payout", version: "v2", auth: HMAC,
    required: ["client_orderid", "amount", "currency"],
    optional: ["order_desc", "ipaddress", "purpose", "server_callback_url", "redirect_url", "credit_card_number",
      "destination-card-no", "card_printed_name", "expire_month", "expire_year", "destination-card-ref-id",
      "account_number", "bank_name",
      "bank_branch", "wallet_id", "phone", "receiver_first_name", "receiver_last_name"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  PAYOUTFORM: op({
    // Auth "not shown"; the vendor docs disagree (notes §10). Default HMAC-SHA1, configurable per operation.
    name: "PAYOUTFORM", path: "/api/v2/payout-form", version: "v2", auth: HMAC,
    required: ["client_orderid", "amount", "currency", "redirect_url"],
    optional: ["order_desc", "ipaddress", "purpose", "server_callback_url", "email"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncFormResponse,
  }),
  CARDREF_V4: op({
    name: "CARDREF_V4", path: "/api/v4/create-card-ref", version: "v4", auth: RSA,
    required: ["client_orderid", "orderid"], optional: [],
    movesMoney: true, clientOrderIdField: "client_orderid", response: cardRefV4Response,
  }),
  CREATE_RP_V4: op({
    name: "CREATE_RP_V4", path: "/api/v4/create-recurring-payment", version: "v4", auth: RSA,
    required: ["client-orderid", "amount", "currency", "period", "interval"],
    optional: ["rp_card_type", "order_desc", "cardrefid", "card-ref-id", "credit-card-number", "server_callback_url", "country", "city",
      "zip-code", "address1", "first-name", "last-name", "customer-ip", "email", "start-date", "max-repeats-number"],
    movesMoney: true, clientOrderIdField: "client-orderid", response: createRecurringPaymentResponse,
  }),
  UPDATE_RP_V4: op({
    // doc.payneteasy.com/integration/API_commands/api_v4_update-recurring-payment.html: finds the profile by
    // recurring-payment-id and updates it; "upon reaching finish date, Recurring payment will go into stop status"
    // (core/recurring/gateway-calls.ts stops a schedule with finish-date). The card fields are conditional (only with a
    // new card number) in the current page, so none is required here.
    name: "UPDATE_RP_V4", path: "/api/v4/update-recurring-payment", version: "v4", auth: RSA,
    required: ["client-orderid", "recurring-payment-id"],
    optional: ["finish-date", "start-date", "max-repeats-number", "period", "interval", "amount", "currency", "order_desc",
      "credit-card-number", "card-printed-name", "expire-year", "expire-month"],
    movesMoney: true, clientOrderIdField: "client-orderid", response: updateRecurringPaymentResponse,
  }),
  PAYOUT_V4_CHECK: op({
    name: "PAYOUT_V4_CHECK", path: "/api/v4/payout-check", version: "v4", auth: RSA,
    required: ["client_orderid", "amount", "currency"],
    optional: ["order_desc", "ipaddress", "purpose", "server_callback_url", "notify_url", "credit_card_number",
      "destination-card-no", "card_printed_name", "expire_month", "expire_year", "destination-card-ref-id",
      "account_number", "bank_name", "bank_branch", "wallet_id", "phone", "receiver_first_name", "receiver_last_name"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  PAYOUT_V4_PAY: op({
    // "not shown" in the seed beyond its role; fields from the vendor docs (notes §5.3): client_orderid, orderid, login.
    name: "PAYOUT_V4_PAY", path: "/api/v4/payout-pay", version: "v4", auth: RSA,
    required: ["client_orderid", "orderid"], optional: ["login"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  PAN_ELIGIBILITY_SEND: op({
    // The seed shows only a signed example (client-order-id, sending-card-ref-id). The vendor page
    // (doc.payneteasy.com …/api_v2_pan-eligibility.html) adds the card by number as the alternative to the reference
    // (sending-card-number + card-printed-name + expire_month + expire_year) and server_callback_url; the outcome is a
    // transaction settled by callback or STATUS (approved: eligible). The builder sends exactly one of the two.
    name: "PAN_ELIGIBILITY_SEND", path: "/api/v2/pan-eligibility/send", version: "v2", auth: HMAC,
    required: ["client-order-id"], oneOf: [["sending-card-ref-id", "sending-card-number"]],
    optional: ["sending-card-ref-id", "sending-card-number", "card-printed-name", "expire_month", "expire_year", "server_callback_url"],
    movesMoney: true, clientOrderIdField: "client-order-id", response: asyncResponse,
  }),
  TRANSFER_V4: op({
    // The seed: "Either destination-card-no or destination-card-ref-id is used" (or a recurring payment id, RPI).
    name: "TRANSFER_V4", path: "/api/v4/transfer", version: "v4", auth: RSA,
    required: ["client_orderid", "amount", "currency"],
    oneOf: [["destination-card-no", "destination-card-ref-id", "destination_card_recurring_payment_id"]],
    optional: ["credit_card_number", "expire_month", "expire_year", "cvv2", "card_printed_name", "deposit2card",
      "destination-card-no", "destination-card-ref-id", "card_recurring_payment_id",
      "destination_card_recurring_payment_id", "redirect_url", "redirect_success_url", "redirect_fail_url",
      "server_callback_url", "merchant_data", "ipaddress", "order_desc", "first_name", "middle_name", "last_name",
      "ssn", "birthday", "address1", "city", "state", "zip_code", "country", "phone", "cell_phone", "email", "purpose",
      "receiver_first_name", "receiver_middle_name", "receiver_last_name", "receiver_phone", "receiver_resident",
      "receiver_identity_document_series", "receiver_identity_document_number", "receiver_identity_document_id",
      "receiver_address1", "receiver_city"],
    movesMoney: true, clientOrderIdField: "client_orderid", response: asyncResponse,
  }),
  GET_BALANCE: op({
    // Not in the seed's table; doc.payneteasy.com …/api_v2_get_balance.html: OAuth HMAC-SHA1, enabled by support on
    // request, one field `balance-provider`, the reply `balance-amount` (shown as a JSON list of one).
    name: "GET_BALANCE", path: "/api/v2/get-balance", version: "v2", auth: HMAC,
    required: ["balance-provider"], optional: [],
    movesMoney: false, clientOrderIdField: null, response: balanceResponse,
  }),
  GET_BALANCE_MANAGER: op({
    // doc.payneteasy.eu …/api_v2_get_balance_manager.html: the URL ends with the manager's login, not an endpoint
    // (target "login"); the consumer key is that login. Optional `balance-name`; the reply lists the balances with
    // their live amount, holds and reserve.
    name: "GET_BALANCE_MANAGER", path: "/api/v2/get-balance/manager", version: "v2", auth: HMAC, target: "login",
    required: [], optional: ["balance-name"],
    movesMoney: false, clientOrderIdField: null, response: balanceResponse,
  }),
  TDS_UPLOAD_METHOD_URL_RESULT: op({
    name: "TDS_UPLOAD_METHOD_URL_RESULT", path: "/api/3ds/v1/upload-method-url-result", version: "3ds/v1",
    auth: CONTROL, control: TDS_CONTROL, required: [...TDS_REQUIRED, "threeDSCompInd"],
    optional: ["threeDSServerTransID", "browserAcceptHeader", "browserIP", "browserJavaEnabled",
      "browserJavascriptEnabled", "browserLanguage", "browserColorDepth", "browserScreenHeight",
      "browserScreenWidth", "browserTZ", "browserUserAgent"],
    movesMoney: false, clientOrderIdField: "client-order-id", response: asyncResponse,
  }),
  TDS_UPLOAD_CRES_RESULT: op({
    name: "TDS_UPLOAD_CRES_RESULT", path: "/api/3ds/v1/upload-cres-result", version: "3ds/v1",
    auth: CONTROL, control: TDS_CONTROL, required: [...TDS_REQUIRED, "cRes"], optional: [],
    movesMoney: false, clientOrderIdField: "client-order-id", response: asyncResponse,
  }),
  TDS_UPLOAD_PARES_RESULT: op({
    name: "TDS_UPLOAD_PARES_RESULT", path: "/api/3ds/v1/upload-pares-result", version: "3ds/v1",
    auth: CONTROL, control: TDS_CONTROL, required: [...TDS_REQUIRED, "paRes"], optional: ["MD"],
    movesMoney: false, clientOrderIdField: "client-order-id", response: asyncResponse,
  }),
} as const satisfies Record<string, OperationSpec>

export type OperationName = keyof typeof OPERATIONS
export type OperationResponse<N extends OperationName> = z.output<(typeof OPERATIONS)[N]["response"]>
export type GatewayErrorBody = z.output<typeof errorResponse>

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[]

/** Case-insensitive lookup by the seed's operation name; undefined when there is no such operation. */
export function findOperation(name: string): OperationSpec | undefined {
  const key = name.trim().toUpperCase().replace(/-/g, "_")
  return (OPERATIONS as Record<string, OperationSpec>)[key]
}
