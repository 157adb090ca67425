/**
 * Checking a gateway callback's `control` with a provider registration's own control key, in memory.
 *
 * Why here: the control keys live only in the registrations' options (medusa-config, payment module providers); this
 * file reads them (`providerOptionsFor` + the provider's `parseOptions`) and answers yes / no, so the key never leaves
 * it. Used by the callback route's early check (any registration: one cheap hash per registration, no database work)
 * and by the callbacks whose client_orderid is a plugin row (payout, card verification: that row's registration).
 * Keys are read once per configuration (they only change when Medusa restarts).
 */
import { verifyCallback } from "../../gateway"
import { parseOptions } from "./options"
import { configuredProviderIds, providerOptionsFor } from "./status-client"

type Registrations = { ids: string[]; keys: Map<string, string | undefined> }
const byConfig = new WeakMap<object, Registrations>()
const NO_CONFIG = {}

function registrations(configModule: unknown): Registrations {
  const cacheKey = configModule && typeof configModule === "object" ? configModule : NO_CONFIG
  let found = byConfig.get(cacheKey)
  if (!found) {
    found = { ids: configuredProviderIds(configModule), keys: new Map() }
    byConfig.set(cacheKey, found)
  }
  return found
}

function controlKeyOf(configModule: unknown, providerId: string): string | undefined {
  const { keys } = registrations(configModule)
  if (!keys.has(providerId)) {
    const raw = providerOptionsFor(configModule, providerId)
    let key: string | undefined
    try {
      key = raw ? parseOptions(raw).controlKey : undefined
    } catch {
      key = undefined // invalid options: the provider itself refuses to load, so it vouches for nothing
    }
    keys.set(providerId, key)
  }
  return keys.get(providerId)
}

/**
 * Whether the message's control verifies with the control key of registration `providerId`; undefined when no such
 * registration of this plugin is configured.
 */
export function verifiesUnder(configModule: unknown, providerId: string, params: Record<string, string>): boolean | undefined {
  const key = controlKeyOf(configModule, providerId)
  return key === undefined ? undefined : verifyCallback(params, key)
}

/**
 * Every registration (medusa-config order) whose control key verifies the message. Registrations of one merchant
 * account share a key: each distinct key is hashed once (a forged callback is checked against all).
 */
export function registrationsVerifying(configModule: unknown, params: Record<string, string>): string[] {
  const tried = new Map<string, boolean>()
  return registrations(configModule).ids.filter((id) => {
    const key = controlKeyOf(configModule, id)
    if (key === undefined) return false
    let verifies = tried.get(key)
    if (verifies === undefined) tried.set(key, (verifies = verifyCallback(params, key)))
    return verifies
  })
}
