/**
 * PaynetEasy payment provider: a short map of Medusa's payment verbs onto the flows that implement them.
 *   initiatePayment  → checkout.ts startSession (hosted: sale-form / preauth-form; direct: no gateway call)
 *   updatePayment    → direct card step (checkout.ts payWithCard), a saved card's charge with its CVV
 *                      (saved-card-payment.ts payNow), 3-D Secure uploads (three-ds.ts), else a refresh
 *   authorizePayment / getPaymentStatus / retrievePayment → STATUS (checkout.ts checkStatus; the redirect is never proof)
 *   capturePayment / refundPayment / cancelPayment / deletePayment → after-authorization.ts; the first three one at a
 *                      time per Payment, on its latest data (payment-ledger.ts)
 *   getWebhookActionAndData → webhook.ts (control verified, initial transaction only, amount never the callback's)
 *   initiatePayment with data.card_id / payment_method → saved-card-payment.ts (no gateway call); the card is charged
 *     once per payment collection by updatePayment with a CVV (the saved-card route) or by authorizePayment
 *   initiatePayment with data.recurring_charge → recurring-charge-payment.ts (a renewal's charge, already taken)
 *   account holders / payment methods (saved cards) → payment-methods.ts
 * Options are parsed once here; the gateway is reached through src/core/connection. Errors reach Medusa as
 * MedusaErrors with a type (errors.ts): a gateway refusal is NOT_ALLOWED (400), bad input INVALID_DATA.
 */
import { AbstractPaymentProvider, MedusaError } from "@medusajs/framework/utils"
import type {
  AuthorizePaymentInput, AuthorizePaymentOutput, CancelPaymentInput, CancelPaymentOutput, CapturePaymentInput,
  CapturePaymentOutput, DeletePaymentInput, DeletePaymentOutput, GetPaymentStatusInput, GetPaymentStatusOutput,
  InitiatePaymentInput, InitiatePaymentOutput, Logger, ProviderWebhookPayload, RefundPaymentInput, RefundPaymentOutput,
  RetrievePaymentInput, RetrievePaymentOutput, UpdatePaymentInput, UpdatePaymentOutput, WebhookActionResult,
  CreateAccountHolderInput, CreateAccountHolderOutput, DeleteAccountHolderInput, DeleteAccountHolderOutput,
  DeletePaymentMethodInput, DeletePaymentMethodOutput, ListPaymentMethodsInput, ListPaymentMethodsOutput,
  SavePaymentMethodInput, SavePaymentMethodOutput,
} from "@medusajs/framework/types"
import type { PaynetEasyClient } from "../../gateway"
import { clientForOptions, parseOptions, type PaynetEasyOptions } from "../../core/connection"
import { PAYNETEASY_PROVIDER_BRAND } from "../../core/connection/registration"
import { parseSessionData, type SessionData } from "../../core/checkout/session-data"
import { cancel, capture, refund, releaseDeleted } from "../../core/checkout/after-authorization"
import { withoutTransient } from "../../core/checkout/card"
import { checkStatus, payWithCard, startSession } from "../../core/checkout/checkout"
import { onPaymentLedger, type LedgerCall } from "../../core/checkout/payment-ledger-store"
import type { ProviderContext } from "../../core/checkout/context"
import { storefrontSafe } from "../../core/checkout/payer"
import { uploadThreeDS } from "../../core/checkout/three-ds"
import { webhookAction } from "../../core/checkout/webhook"
import * as methods from "../../core/saved-cards/payment-methods"
import * as savedCard from "../../core/saved-cards/saved-card-payment"
import { isRecurringCharge, recordRecurringCharge } from "../../core/recurring/recurring-charge-payment"

export { WEBHOOK_AMOUNT, WEBHOOK_ACTIONS } from "../../core/checkout/webhook"

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
    const parsed = parseOptions(options)
    super(cradle, parsed)
    this.options_ = parsed
    this.client_ = clientForOptions(parsed)
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    if (isRecurringCharge(input.data)) return recordRecurringCharge(this.ctx(), input)
    return savedCard.wantsSavedCard(input.data) ? savedCard.startSavedCardSession(this.ctx(), input) : startSession(this.ctx(), input)
  }

  /** The direct flow's card step (POST /store/payneteasy/payment-sessions/:id/card), 3-D Secure uploads, or a refresh. */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const raw = input.data ?? {}
    const data = readData(storefrontSafe(withoutTransient(raw)))
    if (raw.pay_saved_card !== undefined && raw.pay_saved_card !== null) {
      return savedCard.payNow(this.ctx(), data, raw.pay_saved_card)
    }
    if (raw.threeDS !== undefined) {
      return uploadThreeDS(this.client_, data, raw.threeDS, (d) => this.getPaymentStatus({ data: d }))
    }
    if (raw.card === undefined || raw.card === null) {
      return this.getPaymentStatus({ data })
    }
    return payWithCard(this.ctx(), data, raw as { card: unknown; client_ip?: unknown }, input)
  }

  // `return await`: an async function returning a promise unwraps it with two extra microtask turns
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const data = readData(withoutTransient(input.data))
    if (savedCard.isSavedCardSession(data)) return await savedCard.chargeSavedCard(this.ctx(), data, { newAttempt: false })
    // the data read once: getPaymentStatus would parse it again (bench "provider authorize")
    return savedCard.notChargedYet(data) ?? (await checkStatus(this.ctx(), data))
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = readData(withoutTransient(input.data))
    return savedCard.notChargedYet(data) ?? (await checkStatus(this.ctx(), data))
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { data } = await this.getPaymentStatus(input)
    return { data }
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const data = tryReadData(input.data)
    if (savedCard.isSavedCardSession(data)) await savedCard.releaseSavedCardSession(this.ctx(), data)
    const released = data ? await releaseDeleted(this.ctx(), this.container, data) : undefined
    return { data: released ?? input.data }
  }

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const id = input.context?.idempotency_key
    return { data: await this.onLedger(id && { capture: id }, input.data, (data) => capture(this.ctx(), this.container, data, id)) }
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const id = input.context?.idempotency_key
    return { data: await this.onLedger(id && { refund: id }, input.data, (data) => refund(this.ctx(), this.container, data, id, input.amount)) }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const id = input.context?.idempotency_key
    return { data: await this.onLedger(id && { payment: id }, input.data, (data) => cancel(this.ctx(), this.container, data, id)) }
  }

  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    return webhookAction(payload?.data, this.options_.controlKey)
  }

  async createAccountHolder(input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    return methods.createAccountHolder(input)
  }

  async deleteAccountHolder(input: DeleteAccountHolderInput): Promise<DeleteAccountHolderOutput> {
    return methods.deleteAccountHolder(input)
  }

  async savePaymentMethod(input: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
    return methods.savePaymentMethod(this.ctx(), input)
  }

  async listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    return methods.listPaymentMethods(input)
  }

  async deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    return methods.deletePaymentMethod(input)
  }

  /** A capture / refund / cancel on the Payment's latest data, one at a time (payment-ledger.ts); without an id, as given. */
  private async onLedger(call: LedgerCall | undefined | "", given: Record<string, unknown> | undefined, job: (data: SessionData) => Promise<Record<string, unknown>>) {
    const run = (latest: Record<string, unknown> | undefined) => job(readData(withoutTransient(latest)))
    return call ? onPaymentLedger(this.container, call, given ?? {}, run, this.logger()) : run(given)
  }

  private ctx(): ProviderContext {
    return { client: this.client_, options: this.options_, logger: this.logger() }
  }

  private logger(): Logger | undefined {
    try {
      return (this.container as Record<string, any>).logger as Logger
    } catch {
      return undefined
    }
  }
}

/** Our payment data, or INVALID_DATA naming the malformed fields (never their values). */
function readData(data: Record<string, unknown> | undefined): SessionData {
  try {
    return parseSessionData(data)
  } catch (e) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, (e as Error).message)
  }
}

function tryReadData(data: Record<string, unknown> | undefined): SessionData | undefined {
  try {
    return parseSessionData(withoutTransient(data))
  } catch {
    return undefined
  }
}
