/**
 * `medusa-payment-payneteasy/storefront/react`: React 18/19 hooks and components of the storefront kit, a client
 * module (its built files start with "use client"). They import only React, the framework-neutral core
 * (`medusa-payment-payneteasy/storefront`) and the methods entry, never server code. Server components import titles,
 * the icon and `isPaynetEasy` from `medusa-payment-payneteasy/storefront/methods` instead.
 */
export {
  PaynetEasyProvider, usePaynetEasy, useParts, type PaynetEasyClassNames, type PaynetEasyContextValue, type PaynetEasyProviderProps,
} from "./context"
export { followStep } from "./follow-step"
export { usePaymentRun, type RunState } from "./payment-run"
export {
  CardIcon, DirectCardForm, HostedPayButton, PayAgainButton, PaymentReturn, PaynetEasyPayment, SavedCards, payableSession, paymentMethodInfo,
  usePaymentReturn, type LookProps, type PayProps, type ReturnState,
} from "./components"
export { PaymentLinkPage, type PaymentLinkPageProps } from "./payment-link-page"
