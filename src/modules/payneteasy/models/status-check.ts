/**
 * What the gateway said when someone asked it (the admin's "check at the gateway now"): one row per STATUS reply —
 * the order's latest transaction, and each transaction we know by serial number (captures, returns). The order
 * panel shows these as the gateway's transaction history without calling the gateway on every page view; the
 * reply is stored scrubbed and only as the listed fields (no card data: STATUS replies carry bin/last four at most,
 * which are not kept).
 */
import { model } from "@medusajs/framework/utils"

export const PaynetEasyStatusCheck = model
  .define("payneteasy_status_check", {
    id: model.id({ prefix: "pnesc" }).primaryKey(),
    session_id: model.text(),
    provider_id: model.text(),
    /** The gateway's order id (paynet-order-id) and our client_orderid. */
    orderid: model.text(),
    client_orderid: model.text(),
    serial_number: model.text().nullable(),
    transaction_type: model.text().nullable(),
    status: model.text(),
    amount: model.text().nullable(),
    currency: model.text().nullable(),
    error_code: model.text().nullable(),
    error_message: model.text().nullable(),
    checked_at: model.dateTime(),
    /** The Medusa user id of the admin who asked. */
    checked_by: model.text().nullable(),
  })
  .indexes([{ name: "IDX_payneteasy_status_check_session", on: ["session_id", "checked_at"] }])
