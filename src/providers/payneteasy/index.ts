/** Module entry: registers the PaynetEasy payment provider with Medusa's payment module (ids `pp_payneteasy_<id>`). */
import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { PaynetEasyProviderService } from "./provider"

export { PaynetEasyProviderService }
export default ModuleProvider(Modules.PAYMENT, { services: [PaynetEasyProviderService] })
