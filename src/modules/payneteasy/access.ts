/**
 * The one way code reaches the plugin module's service, typed: `paynetEasyModule(container)`. The container is the
 * application's (or a request's scope); the payment module's own container cannot resolve other modules, so code run
 * by the provider passes the application container (`@medusajs/framework`'s `container`).
 */
import type PaynetEasyModuleService from "./service"

export const PAYNETEASY_MODULE = "payneteasy"

type Resolver = { resolve<T = unknown>(key: string): T }

export function paynetEasyModule(container: Resolver): PaynetEasyModuleService {
  return container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
}
