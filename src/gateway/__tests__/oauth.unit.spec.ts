/**
 * OAuth 1.0a signing (seed "Scheme B"): RFC 3986 encoding, parameter sorting, URL normalization, the base string,
 * HMAC-SHA1 recomputed independently with createHmac, RSA-SHA256 verified with the public key, key-size refusal.
 * Keys are generated at test time; no private key is committed.
 */
import { createHmac, generateKeyPairSync, verify } from "node:crypto"
import { percentEncode } from "../encode"
import { GatewayConfigError } from "../errors"
import {
  loadRsaPrivateKey,
  normalizeOAuthUrl,
  oauthAuthorizationHeader,
  oauthBaseString,
  oauthParameterString,
  oauthSign,
} from "../oauth"

const rsa2048 = generateKeyPairSync("rsa", { modulusLength: 2048 })
const pkcs1 = rsa2048.privateKey.export({ type: "pkcs1", format: "pem" }).toString()
const pkcs8 = rsa2048.privateKey.export({ type: "pkcs8", format: "pem" }).toString()

describe("percentEncode (RFC 3986)", () => {
  it("encodes space as %20 and escapes !'()*", () => {
    expect(percentEncode("a b")).toBe("a%20b")
    expect(percentEncode("!'()*")).toBe("%21%27%28%29%2A")
    expect(percentEncode("a+b=c&d/e")).toBe("a%2Bb%3Dc%26d%2Fe")
    expect(percentEncode("é")).toBe("%C3%A9")
  })
  it("leaves unreserved characters alone", () => {
    expect(percentEncode("AZaz09-._~")).toBe("AZaz09-._~")
  })
})

describe("normalizeOAuthUrl", () => {
  it("lowercases scheme and host, drops default ports, query and fragment, keeps path case", () => {
    expect(normalizeOAuthUrl("HTTPS://Sandbox.PaynetEasy.com:443/paynet/api/v4/Payout-Check/1111?x=1#f")).toBe(
      "https://sandbox.payneteasy.com/paynet/api/v4/Payout-Check/1111",
    )
    expect(normalizeOAuthUrl("http://Example.com:80/a")).toBe("http://example.com/a")
    expect(normalizeOAuthUrl("http://127.0.0.1:4010/paynet/api/v2/payout/1")).toBe("http://127.0.0.1:4010/paynet/api/v2/payout/1")
    expect(normalizeOAuthUrl("https://example.com:8443/a")).toBe("https://example.com:8443/a")
  })
})

describe("oauthBaseString", () => {
  it("sorts by name then value, encodes twice, and joins METHOD&url&params", () => {
    const params: Array<[string, string]> = [
      ["b", "2 3"],
      ["a", "z"],
      ["a", "y"],
      ["oauth_signature", "must-not-appear"],
      ["c!", "(x)*'"],
    ]
    expect(oauthParameterString(params)).toBe("a=y&a=z&b=2%203&c%21=%28x%29%2A%27")
    expect(oauthBaseString("post", "HTTPS://Gate.Example.com:443/paynet/api/v2/payout/1111", params)).toBe(
      "POST&https%3A%2F%2Fgate.example.com%2Fpaynet%2Fapi%2Fv2%2Fpayout%2F1111&a%3Dy%26a%3Dz%26b%3D2%25203%26c%2521%3D%2528x%2529%252A%2527",
    )
  })
})

describe("oauthSign", () => {
  const body: Array<[string, string]> = [
    ["client_orderid", "po-1"],
    ["amount", "10.42"],
    ["currency", "EUR"],
    ["order_desc", "Payout (test) *1*"],
  ]
  const url = "https://sandbox.payneteasy.com/paynet/api/v2/payout/1111"

  it("signs HMAC-SHA1 with key = control key + '&' (recomputed independently)", () => {
    const signed = oauthSign({
      method: "HMAC-SHA1",
      url,
      params: body,
      consumerKey: "merchant-login",
      controlKey: "B17F59B4-A7DC-41B4-8FF9-37D986B43D20",
      nonce: "abc123",
      timestamp: 1700000000,
    })
    const expectedBase =
      "POST&" +
      encodeURIComponent(url) +
      "&" +
      [
        "amount=10.42",
        "client_orderid=po-1",
        "currency=EUR",
        "oauth_consumer_key=merchant-login",
        "oauth_nonce=abc123",
        "oauth_signature_method=HMAC-SHA1",
        "oauth_timestamp=1700000000",
        "oauth_version=1.0",
        "order_desc=Payout%20%28test%29%20%2A1%2A",
      ]
        .join("&")
        .replace(/%/g, "%25")
        .replace(/&/g, "%26")
        .replace(/=/g, "%3D")
    expect(signed.baseString).toBe(expectedBase)
    const expected = createHmac("sha1", "B17F59B4-A7DC-41B4-8FF9-37D986B43D20&").update(expectedBase).digest("base64")
    expect(signed.signature).toBe(expected)
    expect(signed.authorization).toBe(
      `OAuth oauth_consumer_key="merchant-login", oauth_nonce="abc123", oauth_signature_method="HMAC-SHA1", ` +
        `oauth_timestamp="1700000000", oauth_version="1.0", oauth_signature="${percentEncode(expected)}"`,
    )
  })

  it("changes the signature when any signed input changes", () => {
    const base = { method: "HMAC-SHA1" as const, url, params: body, consumerKey: "m", controlKey: "k", nonce: "n", timestamp: 1 }
    const sig = oauthSign(base).signature
    expect(oauthSign({ ...base, nonce: "n2" }).signature).not.toBe(sig)
    expect(oauthSign({ ...base, timestamp: 2 }).signature).not.toBe(sig)
    expect(oauthSign({ ...base, params: [...body, ["x", "1"]] }).signature).not.toBe(sig)
    expect(oauthSign({ ...base, controlKey: "K" }).signature).not.toBe(sig)
    // Host case and the default port do not matter; the path does.
    expect(oauthSign({ ...base, url: url.replace("sandbox.payneteasy.com", "SANDBOX.payneteasy.com:443") }).signature).toBe(sig)
    expect(oauthSign({ ...base, url: url + "2" }).signature).not.toBe(sig)
  })

  it.each([["PKCS#1", pkcs1], ["PKCS#8", pkcs8]])("signs RSA-SHA256 with a %s key, verifiable with the public key", (_, pem) => {
    const signed = oauthSign({
      method: "RSA-SHA256",
      url: url.replace("/v2/payout/", "/v4/payout-check/"),
      params: body,
      consumerKey: "merchant-login",
      privateKey: pem,
      nonce: "n-1",
      timestamp: "1700000001",
    })
    expect(signed.baseString.startsWith("POST&https%3A%2F%2Fsandbox.payneteasy.com%2Fpaynet%2Fapi%2Fv4%2Fpayout-check%2F1111&")).toBe(true)
    expect(signed.baseString).toContain("oauth_signature_method%3DRSA-SHA256")
    const ok = verify("sha256", Buffer.from(signed.baseString), rsa2048.publicKey, Buffer.from(signed.signature, "base64"))
    expect(ok).toBe(true)
    const tampered = verify("sha256", Buffer.from(signed.baseString + "x"), rsa2048.publicKey, Buffer.from(signed.signature, "base64"))
    expect(tampered).toBe(false)
  })

  it("refuses RSA keys under 2048 bits, non-RSA keys and garbage, without quoting the key", () => {
    const small = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    for (const pem of [small, ec, "not a key"]) {
      let error: unknown
      try {
        loadRsaPrivateKey(pem)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(GatewayConfigError)
      expect((error as Error).message).not.toContain("PRIVATE KEY")
    }
    expect(() => loadRsaPrivateKey(small)).toThrow(/1024-bit.*at least 2048/)
    expect(() =>
      oauthSign({ method: "RSA-SHA256", url, params: [], consumerKey: "m", privateKey: small, nonce: "n", timestamp: 1 }),
    ).toThrow(GatewayConfigError)
    expect(loadRsaPrivateKey(pkcs1).asymmetricKeyDetails?.modulusLength).toBe(2048)
  })

  it("formats the Authorization header with percent-encoded values", () => {
    expect(oauthAuthorizationHeader([["oauth_signature", "a+b/c="], ["oauth_nonce", "x y"]])).toBe(
      'OAuth oauth_signature="a%2Bb%2Fc%3D", oauth_nonce="x%20y"',
    )
  })
})
