/**
 * The saved-card charge intents (models/card-charge.ts), read and written from the payment provider: at most one live
 * charge per payment collection. See saved-card-payment.ts for the rules; this file only talks to the table.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { InferTypeOf } from "@medusajs/framework/types"
import type { PaynetEasyCardCharge } from "../../modules/payneteasy/models/card-charge"
import { LIVE_CARD_CHARGE_STATES } from "../../modules/payneteasy/models/card-charge"
import { pluginService } from "./records"

export type CardChargeRow = InferTypeOf<typeof PaynetEasyCardCharge>
export type NewCardCharge = Pick<CardChargeRow, "payment_collection_id" | "session_id" | "client_orderid" | "card_id" | "customer_id" | "amount" | "currency" | "off_session">
export type CardChargeUpdate = Partial<Pick<CardChargeRow, "state" | "gateway_order_id" | "gateway_status" | "error_message" | "session_id">>

type ChargeService = {
  listPaynetEasyCardCharges(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<CardChargeRow[]>
  createPaynetEasyCardCharges(data: NewCardCharge): Promise<CardChargeRow>
  updatePaynetEasyCardCharges(data: CardChargeUpdate & { id: string }): Promise<CardChargeRow>
}

const charges = () => pluginService<ChargeService>()

/** The collection's live charge (sending, pending or approved), if any: there is at most one. */
export async function liveCharge(paymentCollectionId: string): Promise<CardChargeRow | undefined> {
  const [row] = await charges().listPaynetEasyCardCharges({ payment_collection_id: paymentCollectionId, state: [...LIVE_CARD_CHARGE_STATES] }, { take: 1 })
  return row
}

/** How many charges this session started (any state): the next one's attempt number is this + 1. */
export async function chargesOfSession(sessionId: string): Promise<number> {
  return (await charges().listPaynetEasyCardCharges({ session_id: sessionId }, { select: ["id"] })).length
}

/**
 * Records a new live charge before anything is sent. Another live charge of the same collection (another instance got
 * there first) violates the unique index: that is answered as the conflict it is.
 */
export async function recordCharge(row: NewCardCharge): Promise<CardChargeRow> {
  try {
    return await charges().createPaynetEasyCardCharges(row)
  } catch (e) {
    if (/unique|duplicate|already exists/i.test(String((e as Error)?.message))) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment is already being paid with a saved card; nothing was charged")
    }
    throw e
  }
}

export async function updateCharge(id: string, update: CardChargeUpdate): Promise<void> {
  await charges().updatePaynetEasyCardCharges({ id, ...update })
}
