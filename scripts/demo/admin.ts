/**
 * The after-sale part of the demo, done the way the dashboard does it: log in as the admin user with
 * @medusajs/js-sdk (emailpass), then capture part of the authorization and refund part of that capture through
 * Medusa's admin payment routes — which call the provider, which calls the gateway.
 */
import Medusa from "@medusajs/js-sdk"
import { normalizeAmount } from "../../src/gateway/money"
import { DemoCheckError, step } from "./steps"

export interface AdminCredentials {
  email: string
  password: string
}

export interface MedusaPaymentView {
  orderId: string
  displayId?: number
  currency: string
  orderTotal: string
  paymentStatus?: string
  paymentId: string
  paymentAmount: string
  captured: string[]
  refunded: string[]
  gatewayStatus?: string
}

const ORDER_FIELDS = [
  "id",
  "display_id",
  "total",
  "currency_code",
  "payment_status",
  "*payment_collections",
  "*payment_collections.payments",
  "*payment_collections.payments.captures",
  "*payment_collections.payments.refunds",
].join(",")

export async function adminSdk(backendUrl: string, credentials: AdminCredentials): Promise<Medusa> {
  const sdk = new Medusa({ baseUrl: backendUrl, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })
  const token = await sdk.auth.login("user", "emailpass", credentials)
  if (typeof token !== "string") throw new DemoCheckError("admin login did not return a token")
  return sdk
}

/** What Medusa recorded for the order's (single) payment, read through the admin API. */
export async function medusaPayment(sdk: Medusa, orderId: string): Promise<MedusaPaymentView> {
  const { order } = await sdk.admin.order.retrieve(orderId, { fields: ORDER_FIELDS })
  const payments = (order.payment_collections ?? []).flatMap((pc) => pc.payments ?? [])
  if (payments.length !== 1) throw new DemoCheckError(`expected one payment on order ${orderId}, found ${payments.length}`)
  const p = payments[0] as (typeof payments)[number] & {
    captures?: Array<{ amount: unknown }>
    refunds?: Array<{ amount: unknown }>
    data?: Record<string, unknown>
  }
  return {
    orderId: order.id,
    displayId: order.display_id,
    currency: order.currency_code.toUpperCase(),
    orderTotal: String(order.total),
    paymentStatus: (order as { payment_status?: string }).payment_status,
    paymentId: p.id,
    paymentAmount: String(p.amount),
    captured: (p.captures ?? []).map((c) => String(c.amount)),
    refunded: (p.refunds ?? []).map((r) => String(r.amount)),
    gatewayStatus: typeof p.data?.gatewayStatus === "string" ? p.data.gatewayStatus : undefined,
  }
}

export async function captureAndRefund(
  sdk: Medusa,
  orderId: string,
  amounts: { capture: number; refund: number }
): Promise<MedusaPaymentView> {
  const before = await step(
    "admin: look up the order's payment",
    () => medusaPayment(sdk, orderId),
    (p) => `${p.paymentId}, ${p.paymentAmount} ${p.currency} authorized, gateway status ${p.gatewayStatus ?? "?"}`
  )
  const fmt = (a: number | string) => `${normalizeAmount(String(a), before.currency)} ${before.currency}`
  await step(
    `admin: capture ${fmt(amounts.capture)} of ${fmt(before.paymentAmount)}`,
    async () => {
      await sdk.admin.payment.capture(before.paymentId, { amount: amounts.capture })
      const after = await medusaPayment(sdk, orderId)
      if (after.captured.length !== 1) throw new DemoCheckError(`expected one capture, Medusa shows ${after.captured.length}`)
      return after
    },
    (p) => `Medusa recorded a capture of ${p.captured.map(fmt).join(" + ")}`
  )
  return step(
    `admin: refund ${fmt(amounts.refund)} of the captured money`,
    async () => {
      await sdk.admin.payment.refund(before.paymentId, { amount: amounts.refund })
      const after = await medusaPayment(sdk, orderId)
      if (after.refunded.length !== 1) throw new DemoCheckError(`expected one refund, Medusa shows ${after.refunded.length}`)
      return after
    },
    (p) => `Medusa recorded a refund of ${p.refunded.map(fmt).join(" + ")}; order payment status "${p.paymentStatus ?? "?"}"`
  )
}
