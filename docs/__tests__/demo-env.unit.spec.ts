/**
 * The demo's environment as docs/sandbox-and-cli.md documents it (scripts/demo/env.ts): a storefront's origin passes
 * the generated app's store and auth CORS (Medusa matches origins literally: "*" would match none), every variable
 * overrides its default, and a second demo on another port gets a database of its own.
 */
import fs from "node:fs"
import path from "node:path"
import { parseCorsOrigins } from "@medusajs/framework/utils"
import { demoEnv, DEMO_DB_NAME } from "../../scripts/demo/env"

const RETURN = "/payneteasy-demo/thank-you"
/** What Medusa's CORS middleware does with a configured origin list: string equality or a regexp test. */
const passes = (list: string, origin: string) => parseCorsOrigins(list).some((o) => (typeof o === "string" ? o === origin : o.test(origin)))

describe("demo environment", () => {
  it("defaults: the backend and dtc-starter's localhost:8000 pass store and auth CORS; the shop's return page; the demo database", () => {
    const env = demoEnv({}, 9000, RETURN)
    for (const origin of ["http://localhost:8000", "http://localhost:9000"]) {
      expect([origin, passes(env.storeCors, origin), passes(env.authCors, origin)]).toEqual([origin, true, true])
    }
    expect(passes(env.storeCors, "http://evil.example")).toBe(false)
    expect(env).toMatchObject({ storefrontReturnUrl: `http://localhost:9000${RETURN}`, databaseName: DEMO_DB_NAME })
  })

  it("every variable overrides its default", () => {
    const env = demoEnv(
      { STORE_CORS: "https://shop.example", AUTH_CORS: "https://shop.example", STOREFRONT_RETURN_URL: "https://shop.example/dk/payneteasy/return", DEMO_DATABASE_NAME: "my_demo" },
      9000,
      RETURN
    )
    expect(env).toEqual({
      storeCors: "https://shop.example", authCors: "https://shop.example", storefrontReturnUrl: "https://shop.example/dk/payneteasy/return", databaseName: "my_demo",
    })
    expect(passes(env.storeCors, "https://shop.example")).toBe(true)
  })

  it("a second demo on another port has its own database; '*' and unusable database names are refused", () => {
    expect(demoEnv({}, 9100, RETURN).databaseName).toBe(`${DEMO_DB_NAME}_9100`)
    expect(demoEnv({}, 9100, RETURN).databaseName).not.toBe(demoEnv({}, 9000, RETURN).databaseName)
    expect(() => demoEnv({ STORE_CORS: "*" }, 9000, RETURN)).toThrow(/literally/)
    expect(() => demoEnv({ DEMO_DATABASE_NAME: 'x"; drop' }, 9000, RETURN)).toThrow(/DEMO_DATABASE_NAME/)
  })

  it("docs/sandbox-and-cli.md names every variable the demo reads", () => {
    const doc = fs.readFileSync(path.join(__dirname, "..", "sandbox-and-cli.md"), "utf8")
    for (const name of ["PORT", "STORE_CORS", "AUTH_CORS", "STOREFRONT_RETURN_URL", "DEMO_DATABASE_NAME"]) expect([name, doc.includes(`\`${name}\``)]).toEqual([name, true])
  })
})
