/**
 * PaynetEasy payment provider: maps Medusa's payment verbs onto the gateway (authorize → preauth/sale,
 * capture → capture, cancel → void, refund → return). Skeleton: methods land in the next commits.
 */
import { AbstractPaymentProvider, PaymentSessionStatus } from "@medusajs/framework/utils"
import type {
  AuthorizePaymentInput, AuthorizePaymentOutput, CancelPaymentInput, CancelPaymentOutput, CapturePaymentInput,
  CapturePaymentOutput, DeletePaymentInput, DeletePaymentOutput, GetPaymentStatusInput, GetPaymentStatusOutput,
  InitiatePaymentInput, InitiatePaymentOutput, ProviderWebhookPayload, RefundPaymentInput, RefundPaymentOutput,
  RetrievePaymentInput, RetrievePaymentOutput, UpdatePaymentInput, UpdatePaymentOutput, WebhookActionResult,
} from "@medusajs/framework/types"
import { parseOptions, type PaynetEasyOptions } from "./options"

export class PaynetEasyProviderService extends AbstractPaymentProvider<PaynetEasyOptions> {
  static identifier = "payneteasy"

  static validateOptions(options: Record<any, any>): void {
    parseOptions(options)
  }

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    super(cradle, parseOptions(options))
  }

  private notYet(): never {
    throw new Error("PaynetEasy provider: not implemented yet")
  }
  async initiatePayment(_i: InitiatePaymentInput): Promise<InitiatePaymentOutput> { return this.notYet() }
  async authorizePayment(_i: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> { return this.notYet() }
  async capturePayment(_i: CapturePaymentInput): Promise<CapturePaymentOutput> { return this.notYet() }
  async cancelPayment(_i: CancelPaymentInput): Promise<CancelPaymentOutput> { return this.notYet() }
  async refundPayment(_i: RefundPaymentInput): Promise<RefundPaymentOutput> { return this.notYet() }
  async deletePayment(i: DeletePaymentInput): Promise<DeletePaymentOutput> { return { data: i.data } }
  async updatePayment(_i: UpdatePaymentInput): Promise<UpdatePaymentOutput> { return this.notYet() }
  async retrievePayment(i: RetrievePaymentInput): Promise<RetrievePaymentOutput> { return { data: i.data } }
  async getPaymentStatus(i: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    return { data: i.data, status: PaymentSessionStatus.PENDING }
  }
  async getWebhookActionAndData(_p: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> { return this.notYet() }
}
