/**
 * Reply parsing and error mapping: JSON (long ids kept exact) and the legacy `key=value\n&` form (trimmed, decoded
 * once, `html` not double-decoded), unknown keys kept, error types and HTTP statuses mapped to error classes.
 */
import {
  GatewayAuthError,
  GatewayProtocolError,
  GatewayServerError,
  GatewayValidationError,
} from "../errors"
import { OPERATIONS } from "../operations"
import { parseGatewayBody, quoteLongNumbers } from "../parse"
import { interpretReply } from "../response"

const LEGACY_STATUS =
  "type=status-response\n&serial-number=00000000-0000-0000-0000-0000043b64d7\n&merchant-order-id=902B4FF56\n" +
  "&paynet-order-id=1969105\n&status=processing\n&amount=10.42\n&currency=EUR\n" +
  "&html=%3Cform+action%3D%22https%3A%2F%2Facs.example%2Fpa%3Fa%3D1%26b%3D%2541%22%3E%3C%2Fform%3E\n" +
  "&redirect-to=https%3A%2F%2Fsandbox.example%2Fpayment%2Fform%2Fredirect%2F1969105%2F\n" +
  "&name=John+Doe\n&paynet-processing-date=2024-03-20+08%3A51%3A03+MSK\n&order-stage=sale_3d_validating\n"

describe("parseGatewayBody", () => {
  it("parses the legacy form: values trimmed, + and %XX decoded once, html not double-decoded", () => {
    const parsed = parseGatewayBody(LEGACY_STATUS)
    expect(parsed.type).toBe("status-response")
    expect(parsed["paynet-order-id"]).toBe("1969105")
    expect(parsed.currency).toBe("EUR")
    expect(parsed.name).toBe("John Doe")
    // %2541 decodes once to %41, never further to "A".
    expect(parsed.html).toBe('<form action="https://acs.example/pa?a=1&b=%41"></form>')
    expect(parsed["redirect-to"]).toBe("https://sandbox.example/payment/form/redirect/1969105/")
    expect(parsed["paynet-processing-date"]).toBe("2024-03-20 08:51:03 MSK")
    expect(Object.values(parsed).every((v) => typeof v === "string" && v === v.trim())).toBe(true)
  })

  it("parses JSON into text values, keeping ids longer than 15 digits exact", () => {
    const parsed = parseGatewayBody(
      '{"type":"async-response","paynet-order-id":12345678901234567890,"end-point-id":22903,"amount":10.42,' +
        '"note":"12345678901234567890 inside a string \\" stays","neg":-98765432109876543,"small":-5,"flag":true,' +
        '"nested":{"n":1}}',
    )
    expect(parsed["paynet-order-id"]).toBe("12345678901234567890")
    expect(parsed["end-point-id"]).toBe("22903")
    expect(parsed.amount).toBe("10.42")
    expect(parsed.note).toBe('12345678901234567890 inside a string " stays')
    expect(parsed.neg).toBe("-98765432109876543")
    expect(parsed.small).toBe("-5")
    // only top-level numbers: other kinds and nested values stay as they are (the schemas judge them)
    expect(parsed.flag).toBe(true)
    expect(parsed.nested).toEqual({ n: 1 })
    // Without the pre-processing the id would be rounded.
    expect(String(JSON.parse('{"id":12345678901234567890}').id)).not.toBe("12345678901234567890")
  })

  it("reads a reply with no number the same whether or not it is scanned for long literals", () => {
    const body = '{"type":"status-response","status":"approved","serial-number":"00000000-0000-0000-0000-000000000001","paynet-order-id":"12345678901234567890","list":["1",{"a":"2"}]}'
    expect(parseGatewayBody(body)).toEqual(JSON.parse(quoteLongNumbers(body)))
    expect(parseGatewayBody(body)["paynet-order-id"]).toBe("12345678901234567890")
  })

  it("keeps long literals exact wherever a number stands: nested, in arrays, or one JSON.parse alone refuses", () => {
    expect(parseGatewayBody('{"type":"x","nested":{"id":12345678901234567890}}').nested).toEqual({ id: "12345678901234567890" })
    expect(parseGatewayBody('{"type":"x","ids":["a",98765432109876543210]}').ids).toEqual(["a", "98765432109876543210"])
    // a leading zero makes the text invalid JSON until the literal is quoted, as it was before
    expect(parseGatewayBody('{"type":"x","id":0123456789012345678}').id).toBe("0123456789012345678")
  })

  it("leaves short numbers, exponents and strings alone", () => {
    expect(quoteLongNumbers('{"a":123456789012345,"b":1e25,"c":"9999999999999999999"}')).toBe(
      '{"a":123456789012345,"b":1e25,"c":"9999999999999999999"}',
    )
  })

  it("refuses what is neither JSON nor form data", () => {
    for (const body of ["", "   ", "<html><body>502 Bad Gateway</body></html>", "{not json", "[1,2]", "just text"]) {
      expect(() => parseGatewayBody(body)).toThrow(GatewayProtocolError)
    }
  })
})

describe("interpretReply", () => {
  const secrets = ["B17F59B4-A7DC-41B4-8FF9-37D986B43D20"]

  it("validates with the operation's schema, coerces ids to strings and keeps unknown keys", () => {
    const result = interpretReply(
      OPERATIONS.SALE,
      { status: 200, body: '{"type":"async-response","serial-number":"s-1","merchant-order-id":"co-1","paynet-order-id":98765432109876543210,"status":"processing","x-new-field":"kept"}' },
      secrets,
    )
    expect(result["paynet-order-id"]).toBe("98765432109876543210")
    expect(result["x-new-field"]).toBe("kept")
    const status = interpretReply(OPERATIONS.STATUS, { status: 200, body: LEGACY_STATUS }, secrets)
    expect(status.status).toBe("processing")
    expect(status["order-stage"]).toBe("sale_3d_validating")
    expect(status["paynet-order-id"]).toBe("1969105")
  })

  it("returns a declined status-response as a result, not an error", () => {
    const r = interpretReply(
      OPERATIONS.STATUS,
      { status: 200, body: '{"type":"status-response","status":"declined","paynet-order-id":1,"error-message":"Insufficient funds","error-code":116}' },
      secrets,
    )
    expect(r.status).toBe("declined")
    expect(r["error-code"]).toBe("116")
  })

  const cases: Array<[string, number, string, new (...a: never[]) => Error]> = [
    ["legacy validation-error with HTTP 200", 200, "type=validation-error\n&error-message=Invalid+amount\n&error-code=1\n", GatewayValidationError],
    ["JSON 400", 400, '{"type":"validation-error","error-message":"Invalid amount","error-code":1}', GatewayValidationError],
    ["type=error with HTTP 200", 200, "type=error\n&error-message=Processing+failed\n&error-code=5\n", GatewayServerError],
    ["HTTP 500", 500, '{"type":"error","error-message":"Internal","error-code":2}', GatewayServerError],
    ["HTTP 502 with HTML", 502, "<html>bad gateway</html>", GatewayServerError],
    ["HTTP 403", 403, "", GatewayAuthError],
    ["HTTP 401", 401, '{"error-message":"bad signature"}', GatewayAuthError],
    ["HTTP 404", 404, "not found", GatewayProtocolError],
    ["unreadable 200", 200, "<html>hello</html>", GatewayProtocolError],
    ["wrong type for the operation", 200, '{"type":"status-response","status":"approved"}', GatewayProtocolError],
  ]
  it.each(cases)("maps %s", (_, status, body, cls) => {
    let error: unknown
    try {
      interpretReply(OPERATIONS.SALE, { status, body }, secrets)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(cls)
    expect((error as GatewayValidationError).httpStatus).toBe(status)
    expect((error as GatewayValidationError).operation).toBe("SALE")
  })

  it("carries the gateway's error-code and error-message, scrubbed", () => {
    let error: GatewayValidationError | undefined
    try {
      interpretReply(
        OPERATIONS.SALE,
        {
          status: 400,
          body: '{"type":"validation-error","error-code":1,"error-message":"Bad card 4444555566661111 with cvv2=123 for control key B17F59B4-A7DC-41B4-8FF9-37D986B43D20"}',
        },
        secrets,
      )
    } catch (e) {
      error = e as GatewayValidationError
    }
    expect(error).toBeInstanceOf(GatewayValidationError)
    expect(error!.code).toBe("1")
    expect(error!.gatewayMessage).toContain("444455******1111")
    for (const text of [error!.message, error!.gatewayMessage!]) {
      expect(text).not.toContain("4444555566661111")
      expect(text).not.toContain("B17F59B4-A7DC-41B4-8FF9-37D986B43D20")
      expect(text).not.toMatch(/cvv2=123/)
    }
  })
})

describe("a reply that is a JSON list (get-balance)", () => {
  it("keeps the records under balance-list, every number as its exact text", () => {
    expect(parseGatewayBody('[ {"balance-amount":100.00, "name":"a"}, {"amount":12345678901234567.25} ]')).toEqual({
      "balance-list": [{ "balance-amount": "100.00", name: "a" }, { amount: "12345678901234567.25" }],
    })
    expect(parseGatewayBody("[]")).toEqual({ "balance-list": [] })
  })
  it("refuses a list of anything but records", () => {
    for (const body of ["[1,2]", '["a"]', "[[]]", "[null]", "[{]"]) expect(() => parseGatewayBody(body)).toThrow(GatewayProtocolError)
  })
})
