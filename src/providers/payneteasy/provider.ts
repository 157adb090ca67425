/**
 * PaynetEasy payment provider: maps Medusa's payment verbs onto the gateway and nothing more.
 *   initiatePayment  → hosted: sale-form / preauth-form (hosted page address in data); direct: no gateway call
 *   updatePayment    → direct: card fields present → sale / preauth (card data only in memory), first decisive STATUS
 *   authorizePayment → STATUS (the shopper's redirect is never proof) → status-map.ts
 *   capturePayment   → capture of exactly the amount of Medusa's Capture row (context.idempotency_key = capture id)
 *   refundPayment    → return of exactly input.amount, keyed by refund id
 *   cancelPayment    → void; refused because settled → full return; already voided → success
 * Amounts: amounts.ts. Session data: session-data.ts. Gateway reliability (send once, STATUS after a lost reply):
 * gateway-ops.ts (sale / preauth / forms) and follow-up.ts (capture / return / void, judged against a STATUS
 * snapshot). Payer fields: payer.ts. Card fields and card-like storefront keys: card.ts. client_orderid: client-order-id.ts.
 */
import { AbstractPaymentProvider, MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type {
  AuthorizePaymentInput, AuthorizePaymentOutput, BigNumberInput, CancelPaymentInput, CancelPaymentOutput,
  CapturePaymentInput, CapturePaymentOutput, DeletePaymentInput, DeletePaymentOutput, GetPaymentStatusInput,
  GetPaymentStatusOutput, InitiatePaymentInput, InitiatePaymentOutput, Logger, ProviderWebhookPayload,
  RefundPaymentInput, RefundPaymentOutput, RetrievePaymentInput, RetrievePaymentOutput, UpdatePaymentInput,
  UpdatePaymentOutput, WebhookActionResult,
} from "@medusajs/framework/types"
import { GatewayError, GatewayInputError, PaynetEasyClient, verifyCallback } from "../../gateway"
import { PAYNETEASY_PROVIDER_BRAND } from "../../gateway-adapter/registration"
import { toGatewayAmount, toGatewayCurrency, toMinor } from "./amounts"
import { cardKeysCleared, parseCard, withoutTransient } from "./card"
import { clientOrderIdFor, sessionIdFromClientOrderId } from "./client-order-id"
import { GatewayRefusal, wrap } from "./errors"
import { followUp, type FollowOp, type FollowOutcome } from "./follow-up"
import { isApproved, isDeclined } from "../../gateway/statuses"
import { isFinal, isNotFound, pollStatus, sendOnce, type StatusReply } from "./gateway-ops"
import { clientFromOptions, parseOptions, type PaynetEasyOptions } from "./options"
import { payerFields, storablePayer, type PayerInput } from "./payer"
import { parseSessionData, type SessionData } from "./session-data"
import { toSessionStatus, transactionTypeKey } from "./status-map"
import { uploadThreeDS } from "./three-ds"

type Data = Record<string, unknown>

/** The webhook result's amount: never the callback's (uncovered by control); unused for the actions we return. */
export const WEBHOOK_AMOUNT = "0"

/**
 * What a verified initial callback tells Medusa, for every session status the status table can produce (typed over
 * all of Medusa's PaymentSessionStatus values, so a new one fails to compile here). `captured` maps to AUTHORIZED:
 * STATUS, not the callback, says "captured" (see getWebhookActionAndData).
 */
export const WEBHOOK_ACTIONS: { readonly [S in PaymentSessionStatus]: PaymentActions } = {
  [PaymentSessionStatus.AUTHORIZED]: PaymentActions.AUTHORIZED,
  [PaymentSessionStatus.CAPTURED]: PaymentActions.AUTHORIZED,
  [PaymentSessionStatus.ERROR]: PaymentActions.FAILED,
  [PaymentSessionStatus.REQUIRES_MORE]: PaymentActions.REQUIRES_MORE,
  [PaymentSessionStatus.CANCELED]: PaymentActions.CANCELED,
  [PaymentSessionStatus.PENDING]: PaymentActions.PENDING,
  [PaymentSessionStatus.PENDING_AUTHORIZATION]: PaymentActions.PENDING_AUTHORIZATION,
}

export class PaynetEasyProviderService extends AbstractPaymentProvider<PaynetEasyOptions> {
  static identifier = "payneteasy"
  /** Lets the gateway adapter tell this plugin's registration from another provider with the same id. */
  static readonly [PAYNETEASY_PROVIDER_BRAND] = true

  static validateOptions(options: Record<any, any>): void {
    parseOptions(options)
  }

  protected readonly options_: PaynetEasyOptions
  protected readonly client_: PaynetEasyClient

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    super(cradle, parseOptions(options))
    this.options_ = parseOptions(options)
    this.client_ = clientFromOptions(this.options_)
  }

  // ---------------------------------------------------------------- session lifecycle

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    const currency = toGatewayCurrency(input.currency_code)
    const base: SessionData = {
      session_id: sessionId,
      clientOrderId: clientOrderIdFor(sessionId, 1),
      attempt: 1,
      flow: this.options_.flow,
      transactionType: this.options_.capture === "automatic" ? "sale" : "preauth",
      amount: toGatewayAmount(input.amount, currency),
      currency,
      storefrontReturnUrl: this.options_.storefrontReturnUrl ?? null,
    }
    const customer = input.context?.customer as Parameters<typeof payerFields>[1]
    // Medusa stores {...storefront data, ...this output}: card-like storefront keys are cleared, `payer` narrowed.
    const storefront = storefrontSafe(input.data)
    if (base.flow === "direct") {
      // Nothing to register yet: the card route sends sale/preauth with the card. Keep the logged-in customer's
      // details (validated by Medusa) for it, since the card request has no customer context.
      const payer = { ...pickCustomer(customer), ...(storefront.payer ?? {}) }
      return { id: base.clientOrderId, data: { ...storefront, ...base, payer }, status: PaymentSessionStatus.PENDING }
    }
    const payer = payerFields(input.data?.payer, customer)
    const op = base.transactionType === "sale" ? "SALEFORM" : "PREAUTHFORM"
    const fields = {
      ...this.orderFields(base, payer),
      amount: base.amount,
      currency,
    }
    const sent = await this.gateway(op, () => sendOnce(this.client_, op, fields, { clientOrderId: base.clientOrderId }))
    if (sent.kind !== "reply") {
      // The registration may exist at the gateway, but its hosted-page address was lost with the response. Nothing
      // has been paid; failing makes Medusa delete this session and the storefront start a new one.
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        "PaynetEasy did not answer the payment-page registration in time; please try again"
      )
    }
    return {
      id: base.clientOrderId,
      data: {
        ...storefront,
        ...base,
        orderId: sent.reply["paynet-order-id"],
        redirectUrl: sent.reply["redirect-url"],
      },
      status: PaymentSessionStatus.PENDING,
    }
  }

  /**
   * The direct flow's card step (called by POST /store/payneteasy/payment-sessions/:id/card through the payment
   * module's updatePaymentSession). Without card fields it only refreshes the status.
   */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const raw = input.data ?? {}
    const data = parseSessionData(storefrontSafe(withoutTransient(raw)))
    if (raw.threeDS !== undefined) {
      return uploadThreeDS(this.client_, data, raw.threeDS, (d) => this.getPaymentStatus({ data: d })) // 3DS uploads: three-ds.ts
    }
    if (raw.card === undefined || raw.card === null) {
      return this.getPaymentStatus({ data })
    }
    if (data.flow !== "direct") {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment session uses the hosted payment page; card details are not accepted")
    }
    const card = parseCardOrThrow(raw.card)
    if (data.gatewayStatus && !isDeclined(data.gatewayStatus) && data.gatewayStatus !== "validation-error") {
      // approved, or still running (processing / 3-D Secure / unknown): a second charge must not start.
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "A payment is already in progress or done for this session")
    }
    const attempt = data.gatewayStatus ? (data.attempt ?? 1) + 1 : data.attempt ?? 1
    const clientOrderId = clientOrderIdFor(data.session_id, attempt)
    const currency = toGatewayCurrency(input.currency_code)
    const amount = toGatewayAmount(input.amount, currency)
    const payer = payerFields(data.payer, undefined, typeof raw.client_ip === "string" ? raw.client_ip : undefined)
    const attemptData: SessionData = {
      ...stripOutcome(data),
      clientOrderId,
      attempt,
      amount,
      currency,
    }
    const op = data.transactionType === "sale" ? "SALE" : "PREAUTH"
    const fields = {
      ...this.orderFields(attemptData, payer),
      amount,
      currency,
      card_printed_name: card.holder,
      credit_card_number: card.number,
      expire_month: card.expMonth,
      expire_year: card.expYear,
      cvv2: card.cvv,
    }
    const send = () => this.gateway(op, () => sendOnce(this.client_, op, fields, { clientOrderId }), attemptData)
    let sent = await send()
    if (!("error" in sent) && sent.kind === "absent") {
      // The lost request never reached the gateway (STATUS does not know the client_orderid): sending it again
      // cannot create a second transaction.
      sent = await send()
    }
    if ("error" in sent) {
      return { data: sent.data, status: PaymentSessionStatus.ERROR }
    }
    if (sent.kind === "absent") {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "PaynetEasy did not answer; please try again")
    }
    const orderId = sent.kind === "reply" ? sent.reply["paynet-order-id"] : sent.status["paynet-order-id"]
    const reply = sent.kind === "adopted" && (isFinal(sent.status) || sent.status.html || sent.status["redirect-to"])
      ? sent.status
      : await pollStatus(this.client_, { clientOrderId, orderId })
    return this.fromStatus({ ...attemptData, orderId: orderId ?? attemptData.orderId }, reply)
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return this.getPaymentStatus(input)
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = parseSessionData(withoutTransient(input.data))
    if (data.flow === "direct" && !data.gatewayStatus && !data.orderId) {
      // No card submitted yet (or its reply was lost): ask by client_orderid, "not found" means nothing to authorize.
      try {
        const reply = await this.client_.request("STATUS", { client_orderid: data.clientOrderId })
        return this.fromStatus({ ...data, orderId: reply["paynet-order-id"] }, reply)
      } catch (e) {
        if (isNotFound(e)) return { data, status: PaymentSessionStatus.PENDING }
        throw wrap("STATUS", e)
      }
    }
    const reply = await this.gateway("STATUS", () =>
      this.client_.request("STATUS", { client_orderid: data.clientOrderId, orderid: data.orderId })
    )
    return this.fromStatus(data, reply)
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { data } = await this.getPaymentStatus(input)
    return { data }
  }

  /**
   * Medusa deletes sessions whenever the cart changes. A hosted registration nobody paid moves no money and is
   * left to expire. If the gateway already holds an approved preauth for this session, the hold is released with
   * a void, since no order can capture a deleted session. An approved sale is never refunded here (a callback may
   * be turning it into an order right now): it is logged for reconciliation.
   */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const parsed = safeParse(input.data)
    if (!parsed?.orderId) {
      return { data: input.data }
    }
    try {
      const reply = await this.client_.request("STATUS", { client_orderid: parsed.clientOrderId, orderid: parsed.orderId })
      const status = toSessionStatus({ status: reply.status, transactionType: reply["transaction-type"] ?? parsed.transactionType })
      if (status === PaymentSessionStatus.AUTHORIZED) {
        const voided = await this.voidOrReturn(parsed, `Session ${parsed.session_id} deleted`)
        return { data: voided }
      }
      if (status === PaymentSessionStatus.CAPTURED) {
        this.logger()?.warn(`PaynetEasy: session ${parsed.session_id} was deleted but gateway order ${parsed.orderId} is a paid sale; reconcile it`)
      }
    } catch (e) {
      this.logger()?.warn(`PaynetEasy: could not check gateway order ${parsed.orderId} of deleted session ${parsed.session_id}: ${(e as Error).message}`)
    }
    return { data: input.data }
  }

  // ---------------------------------------------------------------- money after authorization

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const data = parseSessionData(withoutTransient(input.data))
    const captureId = input.context?.idempotency_key
    if (!captureId) {
      throw new Error("PaynetEasy capture: Medusa passed no capture id (context.idempotency_key); refusing to capture an unknown amount")
    }
    if (data.captures?.some((c) => c.id === captureId)) {
      return { data } // replay of the same Medusa capture
    }
    if (data.transactionType === "sale") {
      return { data } // a sale captured the money when it was approved
    }
    const orderId = requireOrderId(data, "capture")
    const amount = await this.captureAmount(captureId, data.currency)
    const fields = { client_orderid: data.clientOrderId, orderid: orderId, amount, currency: data.currency }
    const entry = await this.follow("CAPTURE", fields, data)
    return { data: { ...data, captures: [...(data.captures ?? []), { id: captureId, amount, currency: data.currency, ...entry }] } }
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = parseSessionData(withoutTransient(input.data))
    const refundId = input.context?.idempotency_key
    if (!refundId) {
      throw new Error("PaynetEasy refund: Medusa passed no refund id (context.idempotency_key)")
    }
    if (data.refunds?.some((r) => r.id === refundId)) {
      return { data }
    }
    const orderId = requireOrderId(data, "refund")
    const amount = toGatewayAmount(input.amount, data.currency)
    if (toMinor(amount, data.currency) <= 0n) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "Refund amount must be greater than zero")
    }
    const fields = {
      client_orderid: data.clientOrderId,
      orderid: orderId,
      amount,
      currency: data.currency,
      comment: `Refund ${refundId}`.slice(0, 50),
    }
    const entry = await this.follow("RETURN", fields, data)
    return { data: { ...data, refunds: [...(data.refunds ?? []), { id: refundId, amount, currency: data.currency, ...entry }] } }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = parseSessionData(withoutTransient(input.data))
    if (data.voided || !data.orderId) {
      return { data } // already voided, or nothing was ever sent to the gateway
    }
    const reply = await this.gateway("STATUS", () =>
      this.client_.request("STATUS", { client_orderid: data.clientOrderId, orderid: data.orderId })
    )
    // STATUS describes the order's latest transaction.
    const type = transactionTypeKey(reply["transaction-type"])
    if (type === "void" && isApproved(reply)) {
      return { data: { ...data, voided: true, gatewayStatus: reply.status } } // already voided
    }
    if ((type === "sale" || type === "preauth") && isDeclined(reply)) {
      return { data: { ...data, gatewayStatus: reply.status } } // the payment itself failed: nothing is held
    }
    return { data: await this.voidOrReturn(data, `Cancel ${input.context?.idempotency_key ?? data.session_id}`) }
  }

  // ---------------------------------------------------------------- callbacks

  /**
   * Pure: verifies the callback's control (sha1 of status + orderid + client_orderid + control key) and maps it.
   * Forged, foreign or non-initial (capture / return / chargeback) callbacks → not_supported, so core does nothing.
   *
   * The control covers neither `amount` nor `type`, so neither may decide money:
   * - an approved sale maps to `authorized` like a preauth, never `captured`: Medusa's `captured` branch
   *   (processPaymentWorkflow) would run capturePaymentWorkflow with `data.amount`. Through `authorized`, Medusa
   *   authorizes the session via authorizePayment, which asks STATUS and reports a sale as captured, so the
   *   Capture is recorded with Medusa's own amount;
   * - `data.amount` is always "0" and never the callback's: processPaymentWorkflow (core-flows 2.21.2) reads
   *   data.amount only in its `captured` branches, which this provider never returns; the type requires the field.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const params = toParams(payload?.data)
    if (!verifyCallback(params, this.options_.controlKey)) {
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const clientOrderId = params.client_orderid ?? params.merchant_order
    const sessionId = sessionIdFromClientOrderId(clientOrderId)
    const type = transactionTypeKey(params.type)
    if (!sessionId || (type !== "sale" && type !== "preauth")) {
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const action = WEBHOOK_ACTIONS[toSessionStatus({ status: params.status, transactionType: type })]
    return { action, data: { session_id: sessionId, amount: WEBHOOK_AMOUNT } }
  }

  // ---------------------------------------------------------------- helpers

  private orderFields(data: SessionData, payer: ReturnType<typeof payerFields>) {
    const backend = this.options_.backendUrl.replace(/\/+$/, "")
    return {
      client_orderid: data.clientOrderId,
      order_desc: `Order ${data.session_id}`,
      ...payer,
      redirect_url: `${backend}/payneteasy/return`,
      server_callback_url: `${backend}/payneteasy/callback`,
    }
  }

  /** Session data for a STATUS reply, through the one status table. */
  private fromStatus(data: SessionData, reply: StatusReply): { data: Data; status: PaymentSessionStatus } {
    const redirectTo = reply["redirect-to"]?.trim()
    const html = reply.html?.trim()
    const status = toSessionStatus({
      status: reply.status,
      transactionType: reply["transaction-type"] ?? data.transactionType,
      html,
      redirectTo,
    })
    const next: Data = { ...stripOutcome(data), gatewayStatus: reply.status }
    if (reply["paynet-order-id"]) next.orderId = reply["paynet-order-id"]
    if (status === PaymentSessionStatus.REQUIRES_MORE) {
      next.nextAction = redirectTo ? { type: "redirect", url: redirectTo } : { type: "html", html }
    }
    if (status === PaymentSessionStatus.ERROR) {
      next.error = {
        code: reply["error-code"],
        message: reply["error-message"]?.trim() || `The payment was ${reply.status} by the gateway`,
      }
    }
    return { data: next, status }
  }

  /** Capture / return / void through follow-up.ts; a still-undecided one is recorded as pending, with a warning. */
  private async follow(op: FollowOp, fields: Record<string, string | undefined>, data: SessionData): Promise<FollowOutcome> {
    const outcome = await followUp(this.client_, {
      op,
      fields,
      query: { clientOrderId: data.clientOrderId, orderId: data.orderId },
      amount: fields.amount,
      currency: data.currency,
    })
    if (outcome.pending) {
      this.logger()?.warn(`PaynetEasy ${op} for order ${data.orderId} is still ${outcome.status}; recorded as pending for reconciliation`)
    }
    return outcome
  }

  /** Void; when the gateway refuses it (e.g. settled), a full return (no amount = full reversal). */
  private async voidOrReturn(data: SessionData, comment: string): Promise<Data> {
    const base = { client_orderid: data.clientOrderId, orderid: data.orderId, comment: comment.slice(0, 50) }
    try {
      const entry = await this.follow("VOID", base, data)
      return { ...data, voided: true, gatewayStatus: entry.status, voidEntry: { id: "void", amount: "all", ...entry } }
    } catch (e) {
      if (!(e instanceof GatewayRefusal)) throw e
      this.logger()?.info(`PaynetEasy: void refused for order ${data.orderId} (${(e as Error).message}); returning in full instead`)
    }
    let entry: FollowOutcome
    try {
      entry = await this.follow("RETURN", base, data)
    } catch (e) {
      // Refused too: if the order is already fully voided / reversed, cancelling is done; otherwise say why not.
      const now = await this.client_.request("STATUS", { client_orderid: data.clientOrderId, orderid: data.orderId }).catch(() => undefined)
      const kind = transactionTypeKey(now?.["transaction-type"])
      if (e instanceof GatewayRefusal && !!now && isApproved(now) && (kind === "void" || kind === "reversal")) {
        return { ...data, voided: true, gatewayStatus: now.status }
      }
      throw e
    }
    return { ...data, voided: true, gatewayStatus: entry.status, refunds: [...(data.refunds ?? []), { id: "cancel", amount: "all remaining", viaReturn: true, ...entry }] }
  }

  /**
   * The amount of Medusa's Capture row. Medusa passes no amount to capturePayment but writes the Capture
   * (with the admin's amount) before calling us and passes its id as idempotency_key (payment-module.js
   * capturePayment_ → capturePaymentFromProvider_). The provider's cradle is the payment module's container,
   * which registers the module's internal `captureService`.
   */
  private async captureAmount(captureId: string, currency: string): Promise<string> {
    let capture: { raw_amount?: BigNumberInput; amount?: BigNumberInput } | undefined
    try {
      const service = (this.container as Record<string, any>).captureService
      capture = await service.retrieve(captureId, { select: ["id", "amount", "raw_amount"] })
    } catch (e) {
      throw new Error(`PaynetEasy capture: cannot read Medusa's capture ${captureId} to learn its amount (${(e as Error).message}); nothing was captured`)
    }
    const amount = capture?.raw_amount ?? capture?.amount
    if (amount === undefined || amount === null) {
      throw new Error(`PaynetEasy capture: Medusa's capture ${captureId} has no amount; nothing was captured`)
    }
    return toGatewayAmount(amount, currency)
  }

  /** Runs a gateway call; gateway errors become clear provider errors (messages are scrubbed by the client). */
  private async gateway<T>(op: string, call: () => Promise<T>): Promise<T>
  private async gateway<T>(op: string, call: () => Promise<T>, declineInto: SessionData): Promise<T | { error: true; data: Data }>
  private async gateway<T>(op: string, call: () => Promise<T>, declineInto?: SessionData): Promise<T | { error: true; data: Data }> {
    try {
      return await call()
    } catch (e) {
      if (declineInto && e instanceof GatewayError && !(e instanceof GatewayInputError) && isNotFound(e)) {
        // The gateway refused the card request itself (validation error): no transaction exists; the shopper may retry.
        return {
          error: true,
          data: { ...declineInto, gatewayStatus: "validation-error", error: { code: e.code, message: e.gatewayMessage || e.message } },
        }
      }
      throw wrap(op, e)
    }
  }

  private logger(): Logger | undefined {
    try {
      return (this.container as Record<string, any>).logger as Logger
    } catch {
      return undefined
    }
  }
}

function parseCardOrThrow(raw: unknown) {
  try {
    return parseCard(raw)
  } catch (e) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, (e as Error).message)
  }
}

function requireOrderId(data: SessionData, what: string): string {
  if (!data.orderId) {
    throw new Error(`PaynetEasy ${what}: this payment has no gateway order id`)
  }
  return data.orderId
}

/** The data without the previous outcome. Written as null, not dropped: Medusa merges JSON data on update. */
function stripOutcome(data: SessionData): SessionData {
  return { ...data, nextAction: null, error: null }
}

function safeParse(data: Data | undefined): SessionData | undefined {
  try {
    return parseSessionData(withoutTransient(data))
  } catch {
    return undefined
  }
}

/** Storefront-written data made storable: card-like keys nulled, `payer` narrowed to the known payer fields. */
function storefrontSafe(data: Data | undefined): Data & { payer?: PayerInput | null } {
  const payer = storablePayer(data?.payer)
  return { ...(data ?? {}), ...cardKeysCleared(data), ...(payer === undefined ? {} : { payer }) }
}

function pickCustomer(customer: Parameters<typeof payerFields>[1]): Data {
  if (!customer) return {}
  const b = customer.billing_address ?? undefined
  const out: Data = {
    email: customer.email ?? undefined,
    first_name: b?.first_name ?? customer.first_name ?? undefined,
    last_name: b?.last_name ?? customer.last_name ?? undefined,
    phone: b?.phone ?? customer.phone ?? undefined,
    address1: b?.address_1 ?? undefined,
    city: b?.city ?? undefined,
    zip_code: b?.postal_code ?? undefined,
    country: b?.country_code ?? undefined,
    state: b?.province ?? undefined,
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => typeof v === "string" && v !== ""))
}

function toParams(data: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (data && typeof data === "object") {
    for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
      if (typeof v === "string") out[k] = v
      else if (Array.isArray(v) && typeof v[0] === "string") out[k] = v[0]
      else if (typeof v === "number") out[k] = String(v)
    }
  }
  return out
}
