/**
 * Our own Medusa module (`payneteasy`): the callback log and the reconciliation state (and the plugin's other
 * records). Its loaders check the plugin's options and schedule the recurring-payments boot check. Auto-registered
 * by Medusa for every module under a plugin's src/modules; other code resolves it as `PAYNETEASY_MODULE`.
 */
import { Module } from "@medusajs/framework/utils"
import PaynetEasyModuleService from "./service"
import recurringBootCheck from "./loaders/recurring-boot-check"
import pluginOptionsCheck from "./loaders/plugin-options-check"

import { PAYNETEASY_MODULE } from "./access"

export { PAYNETEASY_MODULE, paynetEasyModule } from "./access"

export default Module(PAYNETEASY_MODULE, { service: PaynetEasyModuleService, loaders: [pluginOptionsCheck, recurringBootCheck] })
export type { PaynetEasyModuleService }
