/**
 * Operation name → handler. Every row of the shared operation table has a handler here; a missing one fails the
 * type check (the Record is keyed by OperationName).
 */
import type { OperationName } from "../gateway/operations"
import type { Ctx } from "./api-context"
import { cardInfo, createCardRef, createRecurringPayment, updateRecurringPayment } from "./api-cards"
import { capture, refund, status, uploadCRes, uploadMethodResult, uploadPaRes, voidOrder } from "./api-followups"
import { directCardPayment, hostedCardPayment, rebill } from "./api-payments"
import { panEligibility, payout, payoutForm, payoutPay, transfer } from "./api-payouts"
import { getBalance, getBalanceByManager } from "./api-balance"

type Handler = (c: Ctx) => Record<string, string | number>

export const HANDLERS: Record<OperationName, Handler> = {
  SALE: directCardPayment,
  PREAUTH: directCardPayment,
  ACCOUNT_VERIFICATION: directCardPayment,
  SALEFORM: hostedCardPayment,
  PREAUTHFORM: hostedCardPayment,
  PAYMENTFORM: hostedCardPayment,
  ACCOUNT_VERIFICATION_FORM: hostedCardPayment,
  CAPTURE: capture,
  RETURN: refund,
  VOID: voidOrder,
  STATUS: status,
  CARDREF: createCardRef,
  CARDREF_V4: createCardRef,
  CARDINFO: cardInfo,
  REBILL: rebill,
  CREATE_RP_V4: createRecurringPayment,
  UPDATE_RP_V4: updateRecurringPayment,
  PAYOUT: payout,
  PAYOUT_V4_CHECK: payout,
  PAYOUT_V4_PAY: payoutPay,
  PAYOUTFORM: payoutForm,
  TRANSFER_V4: transfer,
  PAN_ELIGIBILITY_SEND: panEligibility,
  GET_BALANCE: getBalance,
  GET_BALANCE_MANAGER: getBalanceByManager,
  TDS_UPLOAD_METHOD_URL_RESULT: uploadMethodResult,
  TDS_UPLOAD_CRES_RESULT: uploadCRes,
  TDS_UPLOAD_PARES_RESULT: uploadPaRes,
}
