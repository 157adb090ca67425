/**
 * The store card / 3-D Secure body validators run through Medusa's own validateAndTransformBody: a bad body is
 * refused naming the field, and nothing that was sent (PAN, CVV, expiry, key names) comes back in the error text.
 * The first test is the control: the same card schema given to Medusa directly echoes the PAN and CVV.
 */
import { validateAndTransformBody } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { cardSchema } from "../../../../core/checkout/card"
import { StorePaynetEasyCardBody, StorePaynetEasyThreeDSBody } from "../validators"

/** Runs the middleware as Medusa does; resolves with what it passed to next() and the validated body. */
async function run(schema: Parameters<typeof validateAndTransformBody>[0], body: unknown) {
  const req = { body } as any
  let passed: unknown = "next() not called"
  await validateAndTransformBody(schema)(req, {} as any, (e?: unknown) => {
    passed = e
  })
  return { error: passed as MedusaError | undefined, validated: req.validatedBody }
}

/** Every run of 3 or more consecutive digits of `text` (what a leak of part of a PAN / CVV / expiry would contain). */
function digitWindows(text: string): string[] {
  const out: string[] = []
  for (const run of text.match(/[0-9]{3,}/g) ?? []) {
    for (let i = 0; i + 3 <= run.length; i++) out.push(run.slice(i, i + 3))
  }
  return out
}

const PAN = "4000002760003184"
const good = { number: PAN, cvv: "737", expMonth: "3", expYear: "31", holder: "Value Free" }

describe("store body validators (validateAndTransformBody, value-free messages)", () => {
  it("control: Medusa's validator given the plain card schema echoes a numeric PAN and CVV", async () => {
    const { error } = await run(z.object({ card: cardSchema }) as any, { card: { ...good, number: Number(PAN), cvv: 737 } })
    expect(error).toBeInstanceOf(MedusaError)
    expect(error!.message).toContain(PAN)
    expect(error!.message).toContain("737")
  })

  const bad: Array<[string, unknown, string]> = [
    ["PAN as a JSON number", { card: { ...good, number: Number(PAN) } }, "card.number"],
    ["PAN failing Luhn", { card: { ...good, number: "4000 0027 6000 3185" } }, "card.number"],
    ["PAN with a letter", { card: { ...good, number: "400000276000318x" } }, "card.number"],
    ["CVV as a JSON number", { card: { ...good, cvv: 7371 + 1 } }, "card.cvv"],
    ["CVV too long", { card: { ...good, cvv: "73755" } }, "card.cvv"],
    ["expiry month out of range", { card: { ...good, expMonth: 913 } }, "card.expMonth"],
    ["expiry month of the wrong type", { card: { ...good, expMonth: [358] } }, "card.expMonth"],
    ["expiry year of 3 digits", { card: { ...good, expYear: "931" } }, "card.expYear"],
    ["the card as a string of digits", { card: `${PAN}|737|03|31` }, "card"],
    ["a payer field of the wrong type", { card: good, payer: { phone: 5550123987 } }, "payer.phone"],
  ]
  it.each(bad)("refuses %s, naming the field and echoing no digits of the input", async (_name, body, field) => {
    const { error, validated } = await run(StorePaynetEasyCardBody, body)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error!.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error!.message).toMatch(new RegExp(`[ ;]${field.replace(".", "\\.")}[ :]`))
    for (const w of new Set(digitWindows(JSON.stringify(body)))) expect(error!.message).not.toContain(w)
    expect(validated).toBeUndefined()
  })

  it("passes a good card on normalized, without unknown top-level keys", async () => {
    const { error, validated } = await run(StorePaynetEasyCardBody, { card: { ...good, number: "4000 0027 6000 3184" }, coupon: "x" })
    expect(error).toBeUndefined()
    expect(validated).toEqual({ card: { number: PAN, cvv: "737", expMonth: "03", expYear: "2031", holder: "Value Free" } })
  })

  it("3-D Secure uploads: a bad option or an unknown browser key is named by field, never echoed", async () => {
    const method = await run(StorePaynetEasyThreeDSBody.method, { threeDSCompInd: "Q9", browser: { browserTZ: "-180", secret4242: "1" } })
    expect(method.error!.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(method.error!.message).toContain("threeDSCompInd must be Y")
    expect(method.error!.message).toContain("browser has 1 field(s) this route does not accept")
    expect(method.error!.message).not.toMatch(/Q9|secret4242|424/)
    const cres = await run(StorePaynetEasyThreeDSBody.cres, { cRes: 12345 })
    expect(cres.error!.message).toContain("cRes")
    expect(cres.error!.message).not.toContain("123")
    const pares = await run(StorePaynetEasyThreeDSBody.pares, { paRes: "eyJ", MD: "m-1", kind: "cres" })
    expect(pares.error).toBeUndefined()
    expect(pares.validated).toEqual({ paRes: "eyJ", MD: "m-1" })
  })
})
