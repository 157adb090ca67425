/**
 * Seed script for the admin browser-test app, run once per database template by `medusa exec` inside the app
 * (admin-app.ts): the integration tests' store (region with the PaynetEasy providers, product, shipping, publishable
 * key — `seedStore`) and an admin user with an emailpass login. Writes the fixture ids as JSON to
 * PNE_ADMIN_APP_FIXTURE so every database cloned from the template knows them.
 */
import fs from "node:fs"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createUserAccountWorkflow } from "@medusajs/medusa/core-flows"
import { seedStore } from "../../integration-tests/helpers/store"

export default async function seedAdminApp({ container }: { container: MedusaContainer }) {
  const out = process.env.PNE_ADMIN_APP_FIXTURE
  const email = process.env.PNE_ADMIN_EMAIL
  const password = process.env.PNE_ADMIN_PASSWORD
  const providers = JSON.parse(process.env.PNE_ADMIN_APP_PROVIDER_IDS ?? "[]") as string[]
  if (!out || !email || !password) throw new Error("admin-app seed: PNE_ADMIN_APP_FIXTURE, PNE_ADMIN_EMAIL and PNE_ADMIN_PASSWORD are required")
  const store = await seedStore(container, { currency: "eur", unitPrice: "10.42", paymentProviders: providers, tag: "browser" })
  const auth = container.resolve(Modules.AUTH)
  const { authIdentity, error } = await auth.register("emailpass", { body: { email, password } } as any)
  if (error || !authIdentity) throw new Error(`admin-app seed: could not register the admin login: ${error}`)
  const { result: user } = await createUserAccountWorkflow(container).run({
    input: { authIdentityId: authIdentity.id, userData: { email, first_name: "Browser", last_name: "Admin" } },
  })
  fs.writeFileSync(out, JSON.stringify({ store, admin: { email, password, userId: user.id } }, null, 2))
}
