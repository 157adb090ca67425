/**
 * The payout part of the demo, through the plugin's admin API with the logged-in js-sdk client: one single-step
 * payout (v2, HMAC-SHA1) to an e-wallet, one two-step payout (v4 payout-check → confirm → payout-pay, RSA-SHA256 with
 * the key pair generated at start) to a card, and one hosted-form payout whose address the recipient would open.
 * Each waits for its final status (the sandbox's callback, confirmed by STATUS); a failure names the step.
 * Also: `payoutKeys()` makes the demo's RSA key pair and writes the private key for the provider's `privateKey`.
 */
import { generateKeyPairSync, randomUUID } from "node:crypto"
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import type Medusa from "@medusajs/js-sdk"
import { DemoCheckError, step } from "./steps"

export interface PayoutKeys {
  publicKeyPem: string
  /** Path of the private key file (0600), given to the provider as `privateKey`. */
  privateKeyPath: string
}

/** A fresh RSA-2048 key pair: the public key is registered with the demo sandbox, the private key file with the provider. */
export function payoutKeys(dir: string): PayoutKeys {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  mkdirSync(dir, { recursive: true })
  const privateKeyPath = path.join(dir, "payneteasy-private.pem")
  writeFileSync(privateKeyPath, privateKey.export({ type: "pkcs8", format: "pem" }).toString(), { mode: 0o600 })
  return { publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), privateKeyPath }
}

type Payout = { id: string; status: string; amount: string; currency_code: string; form_url: string | null; destination: { summary: string } | null }

async function call(sdk: Medusa, url: string, body?: unknown): Promise<Payout> {
  const res = await sdk.client.fetch<{ payout: Payout }>(url, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined ? {} : { body, headers: { "Idempotency-Key": `demo-${randomUUID()}` } }),
  })
  return res.payout
}

async function until(sdk: Medusa, id: string, statuses: string[], timeoutMs = 20_000): Promise<Payout> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const p = await call(sdk, `/admin/payneteasy/payouts/${id}`)
    if (statuses.includes(p.status)) return p
    if (["declined", "error", "filtered", "check_declined", "failed"].includes(p.status)) {
      throw new DemoCheckError(`payout ${id} ended ${p.status}`)
    }
    if (Date.now() > end) throw new DemoCheckError(`payout ${id} still ${p.status} after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

export async function runPayouts(sdk: Medusa): Promise<{ single: Payout; twoStep: Payout; form: Payout }> {
  const single = await step(
    "payouts: single-step (v2, HMAC-SHA1) 15.00 EUR to an e-wallet",
    async () => {
      const p = await call(sdk, "/admin/payneteasy/payouts", { method: "single", amount: "15.00", currency_code: "EUR", destination: { type: "wallet", wallet_id: "demo-wallet-42" }, purpose: "marketplace seller payout" })
      return until(sdk, p.id, ["approved"])
    },
    (p) => `${p.id} approved (callback confirmed by STATUS)`
  )
  const checked = await step(
    "payouts: two-step check (v4 payout-check, RSA-SHA256) 25.00 EUR to a card",
    async () => {
      const p = await call(sdk, "/admin/payneteasy/payouts", { method: "two_step", amount: "25.00", currency_code: "EUR", destination: { type: "card", card_number: "4444555566661111" }, recipient: "Jane Roe" })
      return until(sdk, p.id, ["checked"])
    },
    (p) => `${p.id} checked, destination ${p.destination?.summary}`
  )
  const twoStep = await step(
    "payouts: confirm the checked payout (v4 payout-pay)",
    async () => {
      await call(sdk, `/admin/payneteasy/payouts/${checked.id}/confirm`, {})
      return until(sdk, checked.id, ["approved"])
    },
    (p) => `${p.id} approved`
  )
  const form = await step(
    "payouts: hosted payout form 5.00 EUR (the recipient enters the destination)",
    async () => {
      const p = await call(sdk, "/admin/payneteasy/payouts", { method: "form", amount: "5.00", currency_code: "EUR", purpose: "cash-back" })
      if (!p.form_url) throw new DemoCheckError(`payout ${p.id} has no form address`)
      return p
    },
    (p) => `${p.id}: ${p.form_url}`
  )
  return { single, twoStep, form }
}
