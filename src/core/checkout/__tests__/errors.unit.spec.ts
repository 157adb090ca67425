/**
 * The provider's error words (errors.ts `wrap`): a gateway failure reads "failed", but a request that may have been
 * processed (a lost reply, or one STATUS could not resolve) must not: the admin or shopper reading it is deciding
 * whether to try again.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { GatewayServerError, GatewayTransportError } from "../../../gateway"
import { UnresolvedLostReply } from "../../connection/gateway-ops"
import { wrap } from "../errors"

describe("wrap", () => {
  it("a reply STATUS could not resolve: outcome unknown, never 'failed', with the STATUS failure named", () => {
    const e = wrap("REBILL", new UnresolvedLostReply("REBILL", new GatewayServerError("STATUS: gateway error, HTTP 500", { httpStatus: 500 })))
    expect(e).toBeInstanceOf(MedusaError)
    expect((e as MedusaError).type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(e.message).toMatch(/^PaynetEasy REBILL: outcome unknown, the gateway may have processed it/)
    expect(e.message).toContain("HTTP 500")
    expect(e.message).not.toMatch(/failed/)
  })

  it("a connection refused before sending, a gateway error, or a read (STATUS) whose reply was lost is a failure", () => {
    expect(wrap("STATUS", new GatewayTransportError("STATUS: connection closed by the other side", { indeterminate: true })).message).toMatch(/^PaynetEasy STATUS failed: /)
    expect(wrap("SALE", new GatewayTransportError("SALE: ECONNREFUSED (request not sent)", { indeterminate: false })).message).toMatch(/^PaynetEasy SALE failed: /)
    expect(wrap("SALE", new GatewayServerError("SALE: gateway error, HTTP 502", { httpStatus: 502 })).message).toMatch(/^PaynetEasy SALE failed: /)
  })
})
