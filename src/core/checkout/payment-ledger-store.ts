/**
 * Where payment-ledger.ts reads and writes a Payment's data, and whose lock it takes: the one adapter onto Medusa's
 * payment module internals (the provider's cradle) and Medusa's locking module (the application's container).
 *
 * Why this exists: the provider runs in the payment module's container, which registers the module's internal
 * `captureService`, `refundService` and `paymentService` (what capture-amount.ts and refund-room.ts read) but not the
 * locking module; the application's container (`@medusajs/framework` `container`) has that. The Payment is found
 * from the Capture / Refund row Medusa wrote before calling the provider (its id is `context.idempotency_key`), or
 * is the idempotency key itself for a cancel. Where either is missing (a provider used outside Medusa), the call runs
 * on the data Medusa gave, as before, with a warning.
 */
import { container as appContainer } from "@medusajs/framework"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { LOCK_KEYS } from "../locks/lock-keys"
import { underLock } from "../locks/busy-lock"
import { onLatestPaymentData, type LedgerOptions, type PaymentLedgerStore } from "./payment-ledger"

type Data = Record<string, unknown>

/** Which money call this is, and the Medusa row id that names its Payment. */
export type LedgerCall = { capture: string } | { refund: string } | { payment: string }

type Services = {
  captureService?: { retrieve(id: string, config: { select: string[] }): Promise<{ payment_id?: string; payment?: { id: string } }> }
  refundService?: { retrieve(id: string, config: { select: string[] }): Promise<{ payment_id?: string; payment?: { id: string } }> }
  paymentService?: {
    retrieve(id: string, config: { select: string[] }): Promise<{ data?: Data | null }>
    update(input: { id: string; data: Data }): Promise<unknown>
  }
}

/** How long a money call waits for another one of the same Payment before answering 409. */
const LEDGER_LOCK_SECONDS = 60

async function paymentIdOf(services: Services, call: LedgerCall): Promise<string | undefined> {
  if ("payment" in call) return call.payment
  const row = "capture" in call
    ? await services.captureService?.retrieve(call.capture, { select: ["id", "payment_id"] })
    : await services.refundService?.retrieve(call.refund, { select: ["id", "payment_id"] })
  return row?.payment_id ?? row?.payment?.id
}

function appLocking(): MedusaContainer | undefined {
  try {
    return appContainer.hasRegistration(Modules.LOCKING) && appContainer.resolve(Modules.LOCKING) ? appContainer : undefined
  } catch {
    return undefined
  }
}

function lockFor(locks: MedusaContainer, paymentId: string): PaymentLedgerStore["lock"] {
  return (job) => underLock(locks, LOCK_KEYS.paymentLedger(paymentId), job, {
    timeoutSeconds: LEDGER_LOCK_SECONDS,
    busy: `Another capture, refund or cancel of payment ${paymentId} is still running; try again in a moment`,
  })
}

/** Runs a provider money call through payment-ledger.ts (see the header for when it cannot). */
export async function onPaymentLedger(
  cradle: unknown,
  call: LedgerCall,
  given: Data,
  job: (latest: Data) => Promise<Data>,
  logger?: Logger
): Promise<Data> {
  const services = cradle as Services
  const locks = appLocking()
  const paymentService = services.paymentService
  const paymentId = locks && typeof paymentService?.update === "function" ? await paymentIdOf(services, call).catch(() => undefined) : undefined
  if (!locks || !paymentService || !paymentId) {
    logger?.warn("PaynetEasy: Medusa's payment rows or locking module are not reachable from the provider; this capture/refund/cancel runs on the data Medusa passed, unserialized")
    return job(given)
  }
  const store: PaymentLedgerStore = {
    lock: lockFor(locks, paymentId),
    read: async () => (await paymentService.retrieve(paymentId, { select: ["id", "data"] }))?.data ?? undefined,
    write: async (data) => void (await paymentService.update({ id: paymentId, data })),
  }
  return onLatestPaymentData(store, given, job)
}

/** The same rule for reconciliation (the application's container): query reads, the payment module writes. */
export function containerLedgerStore(container: MedusaContainer, paymentId: string): PaymentLedgerStore {
  return {
    lock: container.hasRegistration(Modules.LOCKING) ? lockFor(container, paymentId) : (job) => job(),
    read: async () => {
      const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "payment", fields: ["id", "data"], filters: { id: paymentId } })
      return ((data[0] as { data?: Data | null } | undefined)?.data ?? undefined) || undefined
    },
    // UpdatePaymentDTO types only `id`; the module passes the rest to the Payment row (no provider call).
    write: async (data) => void (await container.resolve(Modules.PAYMENT).updatePayment({ id: paymentId, data } as { id: string })),
  }
}

/** Reconciliation writes: wait for a pending write-back, leave no mark. */
export const RECONCILIATION_WRITE: LedgerOptions = { awaitsWriteBack: false }
