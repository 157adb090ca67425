/**
 * get-balance, by endpoint and by manager (doc.payneteasy.com …/api_v2_get_balance.html and
 * …/api_v2_get_balance_manager.html): what the account holds (balance-book.ts), as a JSON list like the vendor's
 * examples. Amounts go out as JSON numbers written from the exact decimal text, as the vendor's example shows them.
 * An account without access (support has not enabled get-balance) is refused in words.
 */
import { Refusal, type Ctx } from "./api-context"
import { balanceOf, DEFAULTS } from "./balance-book"
import { LIST_REPLY } from "./http-io"
import { fromMinor } from "./money"
import type { SandboxMerchant } from "./options"
import { latestTxn, type MerchantBalance, type Store } from "./state"

/** Payouts of the merchant whose money transaction is not final yet. */
function bufferHoldMinor(store: Store, m: SandboxMerchant, currency: string): bigint {
  let sum = 0n
  for (const o of store.orders.values()) {
    if (o.merchant.login !== m.login || o.kind !== "payout" || (o.currency ?? "") !== currency) continue
    const last = latestTxn(o)
    if (last.type === "payout" && last.status === "processing") sum += o.amountMinor
  }
  return sum
}

const num = (v: bigint, currency: string) => fromMinor(v, currency) // plain decimal text: valid as a JSON number
const jsonString = (v: string) => JSON.stringify(v)

function listReply(items: string[]): Record<string, string> {
  return { [LIST_REPLY]: `[${items.join(",")}]` }
}

function refuseWithoutAccess(b: MerchantBalance): void {
  if (!b.access) throw new Refusal("Get balance is not enabled for this account: ask PaynetEasy support to enable it", "balance-provider", "10")
}

/** GET_BALANCE: `[{"balance-amount":10000.00}]`. */
export function getBalance(c: Ctx): Record<string, string | number> {
  const b = balanceOf(c.store, c.merchant)
  refuseWithoutAccess(b)
  const provider = c.merchant.balance?.provider ?? DEFAULTS.provider
  if (c.req.fields["balance-provider"] !== provider) {
    throw new Refusal(`Unknown balance-provider: ${c.req.fields["balance-provider"]}`, "balance-provider", "11")
  }
  return listReply([`{"balance-amount":${num(b.amountMinor, b.currency)}}`])
}

/** GET_BALANCE_MANAGER: every balance of the manager's merchants (or the one named by balance-name). */
export function getBalanceByManager(c: Ctx): Record<string, string | number> {
  const name = c.req.fields["balance-name"]
  const items: string[] = []
  for (const m of c.managed ?? []) {
    const b = balanceOf(c.store, m)
    if (!b.access) continue
    if (name && b.name !== name) continue
    const live = b.amountMinor - b.shortTermHoldsMinor - b.rollingReserveMinor
    items.push(
      `{"name":${jsonString(b.name)},"amount":${num(b.amountMinor, b.currency)},` +
        `"online-balance-live-amount":${num(live, b.currency)},"total-short-term-hold-amount":${num(b.shortTermHoldsMinor, b.currency)},` +
        `"total-rolling-reserve-amount":${num(b.rollingReserveMinor, b.currency)},"currency":${jsonString(b.currency)},` +
        `"merchantLogin":${jsonString(m.login)},"amount-buffer-hold":${num(bufferHoldMinor(c.store, m, b.currency), b.currency)}}`,
    )
  }
  if (items.length === 0) {
    throw new Refusal(name ? `Unknown balance-name: ${name}` : "Get balance is not enabled for any account of this manager", "balance-name", "10")
  }
  return listReply(items)
}
