/**
 * Our own Medusa module (`payneteasy`): the callback log and the reconciliation state. Auto-registered by Medusa
 * for every module under a plugin's src/modules; other code resolves it as `PAYNETEASY_MODULE`.
 */
import { Module } from "@medusajs/framework/utils"
import PaynetEasyModuleService from "./service"

export const PAYNETEASY_MODULE = "payneteasy"

export default Module(PAYNETEASY_MODULE, { service: PaynetEasyModuleService })
export type { PaynetEasyModuleService }
