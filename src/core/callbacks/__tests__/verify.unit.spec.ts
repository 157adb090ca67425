import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { callbackControl } from "../../../gateway"
import { OURS, paymentConfig, providerOptions } from "../../connection/__tests__/payment-config"
import { coreFields } from "../params"
import { paramsForVerification, verifyMessage } from "../verify"

const base = { status: "approved", orderid: "1", client_orderid: "payses_1", control: "abc" }

describe("paramsForVerification (the control covers status + orderid + client_orderid, not type)", () => {
  it("passes an initial sale / preauth callback through unchanged, and its mapped action applies", () => {
    for (const type of ["sale", "preauth", "SALE"]) {
      const p = { ...base, type }
      const out = paramsForVerification(p, "preauth")
      expect(out.params).toBe(p)
      expect(out.actionApplies).toBe(true)
    }
  })

  it("asks about a chargeback / reversal / typeless return as the session's own type; the action does not apply", () => {
    for (const type of ["chargeback", "reversal", "capture", undefined]) {
      const p: Record<string, string> = type ? { ...base, type } : { ...base }
      const out = paramsForVerification(p, "preauth")
      expect(out.params).toEqual({ ...base, type: "preauth" })
      expect(out.params.control).toBe("abc")
      expect(out.actionApplies).toBe(false)
      expect(p.type).toBe(type) // the caller's params are not modified
    }
  })

  it("falls back to sale when the session's type is unknown", () => {
    expect(paramsForVerification({ ...base, type: "chargeback" }, undefined).params.type).toBe("sale")
    expect(paramsForVerification({ ...base, type: "chargeback" }, "weird").params.type).toBe("sale")
  })
})

describe("verifyMessage: the session's own registration vouches for the message", () => {
  // Two registrations with different keys; the session belongs to "hosted" (KEY-A).
  const configModule = paymentConfig([
    { resolve: OURS, id: "hosted", options: providerOptions({ controlKey: "KEY-A" }) },
    { resolve: OURS, id: "other", options: providerOptions({ controlKey: "KEY-B" }) },
  ])
  const session = (providerId: string) => ({
    id: "payses_V1", provider_id: providerId, status: "pending", amount: 10.42, currency_code: "eur",
    data: { transactionType: "preauth" }, payment_collection_id: "pay_col_1",
  })
  /** The container seam: the config, the session row the route reads, and a payment module that records each call. */
  function container(row: ReturnType<typeof session>) {
    const asked: string[] = []
    const paymentModule = {
      getWebhookActionAndData: async ({ provider }: { provider: string }) => {
        asked.push(provider)
        return { action: "authorized", data: { session_id: row.id, amount: "0" } }
      },
      listPaymentProviders: async () => [],
    }
    const registry: Record<string, unknown> = {
      configModule,
      [ContainerRegistrationKeys.PG_CONNECTION]: { raw: async () => ({ rows: [row] }) },
      [Modules.PAYMENT]: paymentModule,
    }
    return { container: { resolve: (key: string) => registry[key] } as unknown as MedusaContainer, asked }
  }
  const message = (key: string, over: Record<string, string> = {}) => {
    const base = { status: "approved", orderid: "902133", client_orderid: "payses_V1", merchant_order: "payses_V1", type: "preauth", ...over }
    return { ...base, control: callbackControl(base.status, base.orderid, base.client_orderid, key) }
  }
  const verify = (c: MedusaContainer, params: Record<string, string>) =>
    verifyMessage(c, coreFields(params, { requireType: true }), params, "", {})

  it("signed with its registration's key: verified in memory, mapped by the provider's own table, the payment module not asked", async () => {
    const { container: c, asked } = container(session("pp_payneteasy_hosted"))
    const out = await verify(c, message("KEY-A"))
    expect(out).toMatchObject({ providerId: "pp_payneteasy_hosted", actionApplies: true, result: { action: "authorized", data: { session_id: "payses_V1", amount: "0" } } })
    expect(asked).toEqual([])
    const declined = await verify(c, message("KEY-A", { status: "declined" }))
    expect(declined).toMatchObject({ result: { action: "failed" } })
  })

  it("signed with another registration's key (genuine for that one): forged for this session", async () => {
    const { container: c, asked } = container(session("pp_payneteasy_hosted"))
    expect(await verify(c, message("KEY-B"))).toEqual({ reason: "forged" })
    expect(await verify(c, message("KEY-C"))).toEqual({ reason: "forged" })
    expect(asked).toEqual([])
  })

  it("a later event (a chargeback) is verified as the session's own type; its action does not apply", async () => {
    const { container: c } = container(session("pp_payneteasy_hosted"))
    expect(await verify(c, message("KEY-A", { type: "chargeback" }))).toMatchObject({ providerId: "pp_payneteasy_hosted", actionApplies: false })
    expect(await verify(c, message("KEY-B", { type: "chargeback" }))).toEqual({ reason: "forged" })
  })

  it("a session of a registration medusa-config does not list: the payment module is asked, with that provider", async () => {
    const { container: c, asked } = container(session("pp_payneteasy_elsewhere"))
    expect(await verify(c, message("KEY-Z"))).toMatchObject({ providerId: "pp_payneteasy_elsewhere", result: { action: "authorized" } })
    expect(asked).toEqual(["pp_payneteasy_elsewhere"])
  })
})
