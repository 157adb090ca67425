import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { InMemoryLockingProvider } from "@medusajs/locking/dist/providers/in-memory"
import { isLockTimeout, underLock } from "../busy-lock"

/** Medusa's own in-memory locking provider, behind the container key the plugin resolves. */
function withLocking() {
  const locking = new InMemoryLockingProvider()
  const container = { resolve: (key: string) => (key === Modules.LOCKING ? locking : undefined) } as unknown as MedusaContainer
  return { locking, container }
}

describe("underLock (an admin action waiting for a lock another request holds)", () => {
  it("runs the job under the lock and answers its result", async () => {
    const { container } = withLocking()
    await expect(underLock(container, "k", async () => 42, { timeoutSeconds: 1, busy: "busy" })).resolves.toBe(42)
  })

  it("a lock held elsewhere past the wait: a CONFLICT with the busy message, and the job never ran", async () => {
    const { locking, container } = withLocking()
    await locking.acquire("k", { ownerId: "someone-else", expire: 30 })
    let ran = false
    const attempt = underLock(container, "k", async () => (ran = true), { timeoutSeconds: 1, busy: "Recurring payment x is busy" })
    await expect(attempt).rejects.toMatchObject({ type: MedusaError.Types.CONFLICT, message: "Recurring payment x is busy" })
    expect(ran).toBe(false)
    // the provider's own error, as it reaches a caller without underLock
    const raw = await locking.execute("k", async () => 1, { timeout: 1 }).catch((e: unknown) => e)
    expect(isLockTimeout(raw)).toBe(true)
  })

  it("an error the job throws passes through unchanged, even one that reads like a lock timeout", async () => {
    const { container } = withLocking()
    const own = new MedusaError(MedusaError.Types.NOT_FOUND, "Recurring payment x was not found")
    await expect(underLock(container, "k", async () => { throw own }, { timeoutSeconds: 1, busy: "busy" })).rejects.toBe(own)
    const nested = new Error("Timed-out acquiring lock.")
    await expect(underLock(container, "k2", async () => { throw nested }, { timeoutSeconds: 1, busy: "busy" })).rejects.toBe(nested)
  })

  it("isLockTimeout: the providers' message, as a plain Error or a MedusaError; nothing else", () => {
    expect(isLockTimeout(new Error("Timed-out acquiring lock."))).toBe(true)
    expect(isLockTimeout(new MedusaError(MedusaError.Types.CONFLICT, "Timed-out acquiring lock."))).toBe(true)
    expect(isLockTimeout(new MedusaError(MedusaError.Types.CONFLICT, "Recurring payment x is active"))).toBe(false)
    expect(isLockTimeout("Timed-out acquiring lock.")).toBe(false)
    expect(isLockTimeout(undefined)).toBe(false)
  })
})
