/** What every provider flow needs: the gateway client, the options (parsed once, in the constructor) and a logger. */
import type { Logger } from "@medusajs/framework/types"
import type { PaynetEasyClient } from "../../gateway"
import type { PaynetEasyOptions } from "../connection"

export interface ProviderContext {
  client: PaynetEasyClient
  options: PaynetEasyOptions
  logger?: Logger
}
