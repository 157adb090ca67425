/**
 * `medusa-payment-payneteasy/storefront`: the framework-neutral storefront kit (plain functions over the js-sdk, card
 * checks, shopper messages in English, German and Russian, the server-side return step and the server-action
 * carrier). The payment method list's titles and icon are in `medusa-payment-payneteasy/storefront/methods`, React
 * components in `medusa-payment-payneteasy/storefront/react`. Nothing here imports server code or React: it can be
 * imported from browser code, server components, server actions and route handlers alike.
 */
export * from "./checkout"
export * from "./card"
export * from "./messages"
export * from "./return-handler"
export * from "./server-carrier"
export * from "./payment-link"
