/**
 * Public API of the framework-free PaynetEasy gateway client (no @medusajs imports anywhere in src/gateway).
 * Used by the Medusa provider, the CLI and the tests; the sandbox may import only the operation table.
 */
export { PaynetEasyClient } from "./client"
export type { GatewayConfig } from "./config"
export type { RequestFields, PreparedRequest } from "./request"
export { prepareRequest, ACCEPT, CONTENT_TYPE } from "./request"
export { stopRecurringPaymentFields, finishDateField } from "./recurring-update"
export type { StopRecurringPayment } from "./recurring-update"
export {
  GatewayError,
  GatewayConfigError,
  GatewayInputError,
  GatewayValidationError,
  GatewayServerError,
  GatewayAuthError,
  GatewayProtocolError,
  GatewayTransportError,
} from "./errors"
export type { GatewayErrorDetails } from "./errors"
export { currencyExponent, toMinorUnits, fromMinorUnits, normalizeAmount } from "./money"
export { computeControl, controlTermsString, sha1Hex } from "./control"
export type { ControlContext, ControlFields } from "./control"
export {
  oauthSign,
  oauthBaseString,
  oauthParameterString,
  oauthAuthorizationHeader,
  normalizeOAuthUrl,
  loadRsaPrivateKey,
  oauthNonce,
  MIN_RSA_BITS,
} from "./oauth"
export type { OAuthSignInput, OAuthSignature, OAuthParamList } from "./oauth"
export { percentEncode, formEncode } from "./encode"
export { parseGatewayBody, parseFormBody, parseJsonExact, quoteLongNumbers } from "./parse"
export { interpretReply } from "./response"
export type { RawReply } from "./response"
export { scrub, maskPan, isSensitiveKey, REDACTED } from "./scrub"
export { callbackControl, verifyCallback, readCallbackFields, missingCallbackFields, CALLBACK_WIRE_NAMES } from "./callback"
export type { CallbackFields } from "./callback"
export { DEFAULT_TIMEOUTS } from "./transport"
export type { TransportTimeouts } from "./transport"
export {
  OPERATIONS,
  OPERATION_NAMES,
  FINAL_STATUSES,
  NON_FINAL_STATUSES,
  findOperation,
  asyncResponse,
  asyncFormResponse,
  statusResponse,
  cardRefResponse,
  cardRefV4Response,
  cardInfoResponse,
  createRecurringPaymentResponse,
  errorResponse,
} from "./operations"
export type {
  OperationName,
  OperationResponse,
  OperationSpec,
  GatewayErrorBody,
  SignatureMethod,
  AuthScheme,
  ControlTerm,
} from "./operations"
export { GATEWAY_STATUSES, parseGatewayStatus, isFinal, isApproved, isDeclined } from "./statuses"
export type { GatewayStatus, FinalGatewayStatus } from "./statuses"
export { confirmLaterEvent, laterEventType, MAX_SERIAL_CHECKS } from "./later-event"
export type { LaterEventClaim, ConfirmedLaterEvent, Confirmation } from "./later-event"
