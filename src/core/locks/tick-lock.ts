/**
 * One scheduled reconciliation tick at a time across instances: the payment, payout and recurring-charge
 * reconciliations each run their tick under a named lock of Medusa's locking module (expiring after 2 minutes, should
 * a process die holding it). A tick that finds the lock taken does nothing: another instance is doing the work.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"

/** The tick's result, or undefined when another instance's tick holds the lock. */
export async function underTickLock<T>(container: MedusaContainer, lock: string, tick: () => Promise<T>): Promise<T | undefined> {
  const locking = container.resolve(Modules.LOCKING)
  const ownerId = `${lock}:${randomUUID()}`
  try {
    await locking.acquire(lock, { ownerId, expire: 120 })
  } catch {
    return undefined
  }
  try {
    return await tick()
  } finally {
    await locking.release(lock, { ownerId })
  }
}
