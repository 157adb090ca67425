/**
 * scrub: a realistic request/response transcript and error objects lose card numbers, CVVs, control values,
 * OAuth signatures and keys, while ordinary fields stay readable.
 */
import { generateKeyPairSync } from "node:crypto"
import { GatewayInputError, GatewayTransportError } from "../errors"
import { maskPan, REDACTED, scrub } from "../scrub"

const KEY = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"

describe("maskPan", () => {
  it("masks 13–19 digit runs to first6 + last4, with or without separators", () => {
    expect(maskPan("card 4444555566661111 ok")).toBe("card 444455******1111 ok")
    expect(maskPan("card 4444 5555 6666 1111.")).toBe("card 444455******1111.")
    expect(maskPan("4485-9408-2237-9130")).toBe("448594******9130")
    expect(maskPan("4111111111111")).toBe("411111***1111")
    expect(maskPan("4111111111111111111")).toBe("411111*********1111")
  })
  it("leaves short numbers, dates, amounts and longer digit runs alone", () => {
    expect(maskPan("orderid 1969105 amount 10.42 date 2024-03-20 phone +1 555 0100")).toBe(
      "orderid 1969105 amount 10.42 date 2024-03-20 phone +1 555 0100",
    )
    expect(maskPan("123456789012")).toBe("123456789012")
    expect(maskPan("12345678901234567890")).toBe("12345678901234567890")
  })
})

describe("scrub", () => {
  it("cleans a realistic transcript", () => {
    const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    const transcript = [
      "POST /paynet/api/v2/sale/1111 HTTP/1.1",
      "Accept: application/vnd.pay+json",
      'Authorization: OAuth oauth_consumer_key="merchant", oauth_signature="abc%2Bdef%3D", oauth_nonce="n1"',
      "",
      "client_orderid=payses_01&amount=10.42&currency=EUR&credit_card_number=4444555566661111&cvv2=123" +
        "&card_printed_name=JOHN+DOE&expire_month=12&expire_year=2099&control=c6bdd88a78834ef4b863b088827a459f039e8257" +
        "&destination-card-no=4538977399606732&email=john.smith%40gmail.com",
      "",
      'HTTP/1.1 400 {"type":"validation-error","error-message":"card 4444 5555 6666 1111 rejected","cvv":"1234","controlKey":"' + KEY + '"}',
      `config: controlKey=${KEY} privateKey=${pem}`,
    ].join("\n")
    const out = scrub(transcript, [KEY])
    for (const secret of [
      "4444555566661111",
      "4444 5555 6666 1111",
      "4538977399606732",
      "cvv2=123",
      '"cvv":"1234"',
      "c6bdd88a78834ef4b863b088827a459f039e8257",
      KEY,
      "abc%2Bdef%3D",
      "PRIVATE KEY",
      pem.split("\n")[1],
    ]) {
      expect(out).not.toContain(secret)
    }
    expect(out).toContain("444455******1111")
    expect(out).toContain(`destination-card-no=${REDACTED}`)
    expect(out).toContain(`Authorization: OAuth oauth_consumer_key="merchant", oauth_signature="${REDACTED}"`)
    expect(out).toContain(`privateKey=${REDACTED}\n`.trimEnd())
    expect(out).not.toContain(`${REDACTED}]`)
    expect(out).toContain("client_orderid=payses_01")
    expect(out).toContain("amount=10.42")
    expect(out).toContain("card_printed_name=JOHN+DOE")
    expect(out).toContain(`cvv2=${REDACTED}`)
    expect(out).toContain(`"cvv":"${REDACTED}"`)
  })

  it("cleans objects by key name and by value, without touching the input", () => {
    const input = {
      credit_card_number: "4444555566661111",
      cvv2: "123",
      control: "deadbeef",
      controlKey: KEY,
      privateKeyPem: `-----BEGIN ${"PRIVATE KEY"}-----\nAAAA\n-----END ${"PRIVATE KEY"}-----`, // dummy, not a key
      oauth_signature: "sig",
      "destination-card-no": "4538977399606732",
      nested: [{ card_number: "4111111111111111", note: "pan 4111111111111111 here" }],
      client_orderid: "payses_01",
      amount: "10.42",
      bigPan: 4444555566661111,
    }
    const out = scrub(input)
    expect(out).toEqual({
      credit_card_number: REDACTED,
      cvv2: REDACTED,
      control: REDACTED,
      controlKey: REDACTED,
      privateKeyPem: REDACTED,
      oauth_signature: REDACTED,
      "destination-card-no": REDACTED,
      nested: [{ card_number: REDACTED, note: "pan 411111******1111 here" }],
      client_orderid: "payses_01",
      amount: "10.42",
      bigPan: "444455******1111",
    })
    expect(input.cvv2).toBe("123")
  })

  it("is applied to every error message", () => {
    const e = new GatewayInputError(`bad card 4444555566661111 cvv2=999 key ${KEY}`, { field: "credit_card_number", secrets: [KEY] })
    expect(e.message).toBe(`bad card 444455******1111 cvv2=${REDACTED} key ${REDACTED}`)
    const t = new GatewayTransportError("x", { indeterminate: true, secrets: [KEY], cause: new Error(`socket for ${KEY}`) })
    expect(JSON.stringify((t as unknown as { cause: unknown }).cause)).not.toContain(KEY)
  })
})

describe("serial numbers survive scrubbing (a masked serial is useless for STATUS by-request-sn)", () => {
  it("keeps UUID-shaped serials whole, in text and in objects, and still masks a card number next to one", () => {
    const serial = "00000000-0000-0000-0000-0000043b64d7"
    expect(maskPan(`serial-number=${serial}`)).toBe(`serial-number=${serial}`)
    expect(scrub({ "serial-number": serial, other: "00000000-0000-0000-0000-000000000006" })).toEqual({
      "serial-number": serial,
      other: "00000000-0000-0000-0000-000000000006",
    })
    expect(maskPan(`${serial} 4111-1111-1111-1111`)).toBe(`${serial} 411111******1111`)
    expect(maskPan("4111-1111-1111-1111-0000-0000")).not.toContain("4111-1111")
  })
})
