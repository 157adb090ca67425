/**
 * What Medusa holds behind a payment session, read when the provider is asked to delete it: its Payment and its
 * collection (status and payments). Medusa's deletePayment passes only the session's data, so the provider reads the
 * payment module's own session service from its cradle (the payment module's container, as capture-amount.ts does for
 * captures). If that read fails or is not possible, the answer is "cannot tell", and the caller moves no money.
 */
import type { SessionFacts } from "./paid-collection"

type SessionService = {
  list(filters: { id: string }, config: { relations: string[] }): Promise<Array<SessionFacts & { id: string }>>
}

export type SessionHolder = { found: true; facts: SessionFacts } | { found: false } | { unknown: string }

/** The session's Payment and collection, `{ found: false }` when Medusa has no such session, or why it cannot tell. */
export async function sessionHolder(cradle: unknown, sessionId: string): Promise<SessionHolder> {
  const service = (cradle as Record<string, unknown> | undefined)?.paymentSessionService as SessionService | undefined
  if (!service?.list) return { unknown: "the payment module's session service is not in the provider's container" }
  try {
    const [session] = await service.list(
      { id: sessionId },
      { relations: ["payment", "payment_collection", "payment_collection.payments"] }
    )
    return session ? { found: true, facts: session } : { found: false }
  } catch (e) {
    return { unknown: (e as Error).message }
  }
}
