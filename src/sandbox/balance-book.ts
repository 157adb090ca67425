/**
 * The merchants' balances that get-balance reports (api-balance.ts answers the requests).
 *
 * Each merchant has one balance (options `balance`, default 10000.00 EUR). Approved payouts and merchant-funded
 * transfers take their amount off it (engine.ts), so a test sees the money leave; steering sets any figure and turns
 * access off (an account whose get-balance support has not enabled, which the plugin must say plainly). Live amount
 * = current − short-term holds − rolling reserve (the vendor's formula); the buffer hold is the OUT operations not final
 * yet.
 */
import { toMinor } from "./money"
import type { SandboxBalanceOptions, SandboxMerchant } from "./options"
import type { MerchantBalance, Store } from "./state"


export const DEFAULTS = { provider: "sandbox-balance", name: "default", currency: "EUR", amount: "10000.00" }

const minor = (v: string | undefined, currency: string, field: string): bigint => {
  if (v === undefined) return 0n
  const r = toMinor(v, currency)
  if (!r.ok) throw new Error(`balance ${field}: ${r.message}`)
  return r.minor
}

export function balanceOf(store: Store, m: SandboxMerchant): MerchantBalance {
  let b = store.balances.get(m.login)
  if (!b) {
    const o: SandboxBalanceOptions = m.balance ?? {}
    const currency = (o.currency ?? DEFAULTS.currency).toUpperCase()
    b = {
      name: o.name ?? DEFAULTS.name, currency, access: o.access ?? true,
      amountMinor: minor(o.amount ?? DEFAULTS.amount, currency, "amount"),
      shortTermHoldsMinor: minor(o.shortTermHolds, currency, "shortTermHolds"),
      rollingReserveMinor: minor(o.rollingReserve, currency, "rollingReserve"),
      updatedAt: new Date().toISOString(),
    }
    store.balances.set(m.login, b)
  }
  return b
}

/** Steering: sets figures (major units) and access. */
export function steerBalance(store: Store, m: SandboxMerchant, s: { amount?: string; shortTermHolds?: string; rollingReserve?: string; currency?: string; access?: boolean }): MerchantBalance {
  const b = balanceOf(store, m)
  if (s.currency) b.currency = s.currency.toUpperCase()
  if (s.amount !== undefined) b.amountMinor = minor(s.amount, b.currency, "amount")
  if (s.shortTermHolds !== undefined) b.shortTermHoldsMinor = minor(s.shortTermHolds, b.currency, "shortTermHolds")
  if (s.rollingReserve !== undefined) b.rollingReserveMinor = minor(s.rollingReserve, b.currency, "rollingReserve")
  if (s.access !== undefined) b.access = s.access
  b.updatedAt = new Date().toISOString()
  return b
}

/** An approved payout or merchant-funded transfer leaves the balance (same currency only). */
export function debitBalance(store: Store, m: SandboxMerchant, amountMinor: bigint, currency: string | undefined): void {
  const b = balanceOf(store, m)
  if (currency && currency.toUpperCase() !== b.currency) return
  b.amountMinor -= amountMinor
  b.updatedAt = new Date().toISOString()
}

