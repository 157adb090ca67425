/**
 * Which transport failures mean "certainly not sent" (safe to re-send) versus "may have reached the gateway"
 * (indeterminate): only failures before the connection exists are the former.
 */
import { certainlyNotSent } from "../transport"

const err = (code?: string, cause?: unknown) => Object.assign(new Error("x"), code ? { code } : {}, cause ? { cause } : {})

describe("certainlyNotSent", () => {
  it.each(["UND_ERR_CONNECT_TIMEOUT", "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "DEPTH_ZERO_SELF_SIGNED_CERT"])(
    "%s → not sent",
    (code) => {
      expect(certainlyNotSent(err(code))).toBe(true)
    },
  )
  it.each(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "HPE_INVALID_CONSTANT",
    // The pool closed / destroyed under an in-flight request: its bytes may already have reached the gateway.
    "UND_ERR_DESTROYED", "UND_ERR_CLOSED"])(
    "%s → may have been sent",
    (code) => {
      expect(certainlyNotSent(err(code))).toBe(false)
    },
  )
  it("looks through causes, and treats an unknown failure as possibly sent", () => {
    expect(certainlyNotSent(err(undefined, err("ECONNREFUSED")))).toBe(true)
    expect(certainlyNotSent(new Error("something odd"))).toBe(false)
    expect(certainlyNotSent(undefined)).toBe(false)
  })
})
