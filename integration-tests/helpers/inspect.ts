/**
 * Looking inside the running test app and the sandbox, for assertions: orders of a cart, payments of a session,
 * the plugin's callback log, the one gateway order of a client_orderid, and a bounded wait for any of them.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYNETEASY_MODULE } from "../../src/modules/payneteasy"
import type PaynetEasyModuleService from "../../src/modules/payneteasy/service"
import type { Sandbox } from "../../src/sandbox"

/** Polls `probe` every 100 ms until it returns something truthy; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value as T
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export async function ordersForCart(container: MedusaContainer, cartId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return (data as Array<{ order_id: string }>).map((d) => d.order_id)
}

export async function paymentsForSession(container: MedusaContainer, sessionId: string) {
  return container.resolve(Modules.PAYMENT).listPayments({ payment_session_id: sessionId }, { relations: ["captures", "refunds"] })
}

/** The plugin's module service (callback log, reconciliation watch). */
export const callbackLog = (container: MedusaContainer) => container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)

export async function callbackRows(container: MedusaContainer, filters: Record<string, unknown>) {
  return (await callbackLog(container).listPaynetEasyCallbacks(filters, { order: { received_at: "ASC" } })) as any[]
}

/** The gateway order registered under `clientOrderId`, asserting there is exactly one. */
export function onlyGatewayOrder(sandbox: Sandbox, clientOrderId: string) {
  const list = sandbox.control.byClientOrderId(clientOrderId)
  expect(list).toHaveLength(1)
  return list[0]
}
