/**
 * `medusa-payment-payneteasy/storefront`: the framework-neutral storefront kit (plain functions over the js-sdk, card
 * checks, shopper messages in English, German and Russian). React components are in
 * `medusa-payment-payneteasy/storefront/react`. Nothing here imports server code or React.
 */
export * from "./checkout"
export * from "./card"
export * from "./messages"
export * from "./return-handler"
