/**
 * The Medusa side of confirming a later-event callback (gateway/later-event.ts does the STATUS conversation): what
 * the gateway is asked about (the callback's verified orderid / client_orderid, its unverified type / status /
 * amount as the claim), which serials we already know (the Payment's captures / refunds / void) and which are
 * already used by reflected events, and the read-only STATUS client of the callback's provider.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { confirmLaterEvent, type Confirmation } from "../../gateway"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { statusClientFor } from "../connection"
import { serialNumberOf } from "../../gateway/replies"
import { eventHolder, reflectedEvents } from "./reflect-later-event"

/** Serial numbers of the ledger entries the provider recorded in a Payment's data. */
export function ledgerSerials(data: Record<string, unknown> | null | undefined): string[] {
  const lists = [data?.captures, data?.refunds, data?.voidEntry ? [data.voidEntry] : []]
  return lists
    .flatMap((l) => (Array.isArray(l) ? l : []))
    .map((e) => (e && typeof e === "object" ? (e as { serialNumber?: unknown }).serialNumber : undefined))
    .filter((s): s is string => typeof s === "string" && s !== "")
}

export async function confirmCallbackEvent(
  container: MedusaContainer,
  row: CallbackRow,
  paymentCollectionId: string | undefined
): Promise<Confirmation> {
  const holder = await eventHolder(container, row.session_id, paymentCollectionId)
  const used = new Set(
    (await reflectedEvents(container, holder))
      .filter((e) => (e.source ?? "callback") === "callback")
      .map((e) => e.serial)
      .filter((s): s is string => typeof s === "string")
  )
  const params = (row.params ?? {}) as Record<string, unknown>
  // callback params are strings (core/callbacks/params.ts readParams)
  const serial = serialNumberOf(params)
  const client = statusClientFor(container, row.provider_id)
  try {
    return await confirmLaterEvent(
      client,
      { orderid: row.orderid, clientOrderId: row.client_orderid, type: row.type, status: row.status, amount: row.amount, currency: row.currency, serial },
      { serials: ledgerSerials(holder.payment?.data), used }
    )
  } finally {
    await client.close().catch(() => undefined)
  }
}
