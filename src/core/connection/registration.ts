/**
 * Is a payment-module provider registration THIS plugin's PaynetEasy provider?
 *
 * Why: the workflows and reconciliation build a read-only STATUS client from a registration's options (the payment
 * module offers no way to ask a provider for STATUS once a Payment exists). Picking the registration by id alone
 * would hand the options of any provider whose id happens to match — another plugin's, with its own option shape —
 * to our client. So the registration's `resolve` is loaded (it is the module Medusa loaded, so this is a cache hit)
 * and must export a provider service carrying our brand. The brand is a `Symbol.for`, so the built plugin and its
 * source (tests load the source) recognise each other.
 */
import { createRequire } from "node:module"
import path from "node:path"

/** Every PaynetEasy registration is `pp_payneteasy_<id>` (provider identifier "payneteasy"). */
export const PROVIDER_PREFIX = "pp_payneteasy_"

export const PAYNETEASY_PROVIDER_BRAND = Symbol.for("medusa-payment-payneteasy:provider")

const hasBrand = (service: unknown) =>
  typeof service === "function" && (service as unknown as Record<symbol, unknown>)[PAYNETEASY_PROVIDER_BRAND] === true

/** A module-provider export: `{ services: [...] }`, possibly under `default`. */
function servicesOf(mod: unknown): unknown[] {
  const m = mod as { default?: unknown; services?: unknown } | undefined
  const inner = (m?.services ? m : (m?.default as { services?: unknown } | undefined)) ?? undefined
  return Array.isArray(inner?.services) ? inner!.services : []
}

function load(resolve: unknown, projectDir: string): unknown {
  if (resolve && typeof resolve === "object") return resolve
  if (typeof resolve !== "string" || resolve === "") return undefined
  try {
    const req = createRequire(path.join(projectDir, "noop.js"))
    return req(req.resolve(resolve))
  } catch {
    return undefined
  }
}

/** True only when `resolve` (a path, a package name or the module itself) exports this plugin's provider service. */
export function isThisPluginsProvider(resolve: unknown, projectDir: string = process.cwd()): boolean {
  return servicesOf(load(resolve, projectDir)).some(hasBrand)
}
