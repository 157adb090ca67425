/**
 * The v4 (RSA-SHA256) provider registration for a spec: a generated RSA key whose private half goes to the test app's
 * `pp_payneteasy_v4` registration (PAYNETEASY_TEST_PRIVATE_KEY, read by integration-tests/medusa-config.ts when the app
 * boots) and whose public half the sandbox merchant holds. Call at the top level of a spec file, before the runner.
 */
import { generateKeyPairSync } from "node:crypto"
import { DEFAULT_SANDBOX_MERCHANT } from "../../src/sandbox"
import { useSandbox } from "./sandbox"
import { groupMember } from "./app-group"

export const V4_PROVIDER = "pp_payneteasy_v4"

export function useV4Registration() {
  // In an app group booted with the v4 registration (app-group.ts), its key and sandbox serve every member.
  const group = groupMember()
  if (group) {
    if (!group.v4) throw new Error("useV4Registration() in an app group booted without it: put the file in a v4 group (integration-tests/setup/app-groups.js) or run it alone")
    return group.sandbox
  }
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const previousKey = process.env.PAYNETEASY_TEST_PRIVATE_KEY
  process.env.PAYNETEASY_TEST_PRIVATE_KEY = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
  afterAll(() => {
    if (previousKey === undefined) delete process.env.PAYNETEASY_TEST_PRIVATE_KEY
    else process.env.PAYNETEASY_TEST_PRIVATE_KEY = previousKey
  })
  return useSandbox({
    merchants: [{ ...DEFAULT_SANDBOX_MERCHANT, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() }],
  })
}
