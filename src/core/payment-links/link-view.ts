/**
 * What a holder of a payment link may see of it: what is owed (the collection's amount, the order's number and its
 * lines), whether it can be paid and, if not, why in words, and the open hosted page if there is one. No email, no
 * address, no customer id, no gateway ids: the link is a capability to pay, not to read the order. Pure.
 */
import { toMinor } from "../checkout/amounts"
import { fromMinorUnits } from "../../gateway/money"
import { linkState, refusalMessage, type LinkState } from "./link-state"
import type { LinkRecords } from "./read-link"

export type PaymentLinkState = LinkState["state"]

export interface PaymentLinkView {
  id: string
  state: PaymentLinkState
  /** why it is expired: canceled, order_canceled, not_found */
  why: string | null
  /** the refusal in words (English; the plugin's page translates by `state`) */
  message: string | null
  amount: string | null
  currency_code: string | null
  order: { id: string; display_id: number | null; items: Array<{ title: string; quantity: string; unit_price: string }> } | null
  /** PaynetEasy registrations enabled in the order's region (the plugin's page pays with the first hosted one) */
  provider_ids: string[]
  /** the open hosted page of this link, when one exists: paying it is resuming, not starting again */
  session: { id: string; provider_id: string; status: string; redirect_url: string | null } | null
  /** the last attempt was declined: the gateway's reason */
  declined: string | null
}

const money = (v: unknown, currency: string) => {
  try {
    return fromMinorUnits(toMinor(v as string, currency), currency)
  } catch {
    return ""
  }
}

export function linkView(records: LinkRecords, collectionId: string, state: LinkState = linkState(records)): PaymentLinkView {
  const c = records.collection
  const currency = c?.currency_code?.toUpperCase() ?? null
  const known = c && records.order && state.state !== "not_an_order" && !(state.state === "expired" && state.why === "not_found")
  const sessions = c?.payment_sessions ?? []
  const open = sessions.find((s) => ["pending", "requires_more"].includes(s.status) && typeof s.data?.redirectUrl === "string")
  const last = sessions[0]
  const lastError = last && (last.status === "error" || last.status === "canceled") ? (last.data?.error as { message?: string } | undefined)?.message : undefined
  return {
    id: collectionId,
    state: state.state,
    why: state.state === "expired" ? state.why : null,
    message: state.state === "payable" ? null : refusalMessage(state),
    amount: state.state === "payable" ? state.amount : known && currency ? money(c!.amount, currency) || null : null,
    currency_code: known ? currency : null,
    order: known
      ? {
          id: records.order!.id,
          display_id: records.order!.display_id ?? null,
          items: (records.order!.items ?? []).map((i) => ({
            title: [i.product_title ?? i.title ?? "", i.variant_title && i.variant_title !== i.product_title ? i.variant_title : ""].filter(Boolean).join(" · "),
            quantity: String(i.quantity),
            unit_price: currency ? money((i as any).raw_unit_price ?? i.unit_price, currency) : "",
          })),
        }
      : null,
    provider_ids: state.state === "payable" ? records.providerIds : [],
    session: state.state === "payable" && open
      ? { id: open.id, provider_id: open.provider_id, status: open.status, redirect_url: String(open.data!.redirectUrl) }
      : null,
    declined: state.state === "payable" && lastError ? lastError : null,
  }
}
