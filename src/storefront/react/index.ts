/**
 * `medusa-payment-payneteasy/storefront/react`: React 18/19 hooks and components of the storefront kit. They import
 * only React and the framework-neutral core (`medusa-payment-payneteasy/storefront`), never server code.
 */
export { PaynetEasyProvider, usePaynetEasy, type PaynetEasyContextValue, type PaynetEasyProviderProps } from "./context"
export { followStep } from "./follow-step"
export { usePaymentRun, type RunState } from "./payment-run"
export {
  CardIcon, DirectCardForm, HostedPayButton, PayAgainButton, PaymentReturn, SavedCards, paymentMethodInfo, usePaymentReturn,
  type PayProps, type ReturnState,
} from "./components"
