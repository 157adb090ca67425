/**
 * The kit's shopper-facing texts in English, German and Russian (PaynetEasy's markets), and the one function that
 * picks a text: a store overrides any of them per language (`createMessages("de", { payButton: "Jetzt zahlen" })`).
 * Gateway decline reasons are mapped to a short shopper message by the gateway's error code when it is a known one;
 * otherwise the gateway's own reason is shown after a generic lead-in.
 */
import { LINK_MESSAGES, type PaymentLinkMessages } from "./link-messages"

/** Every text the kit shows (the payment-link page's among them: ./link-messages.ts). `{amount}`-style placeholders are filled by `format`. */
export interface PaynetEasyMessages extends PaymentLinkMessages {
  methodTitle: string
  payButton: string
  payOnPaymentPage: string
  redirecting: string
  processing: string
  confirming: string
  declined: string
  declinedWithReason: string
  notConfirmed: string
  /** A request refused before anything was paid (no internal detail shown). */
  notStarted: string
  payAgain: string
  orderPlaced: string
  cardNumber: string
  expiry: string
  cvv: string
  holder: string
  saveCard: string
  savedCards: string
  useSavedCard: string
  deleteCard: string
  noSavedCards: string
  invalidNumber: string
  invalidExpiry: string
  invalidCvv: string
  invalidHolder: string
  threeDSecure: string
  reason_insufficient_funds: string
  reason_expired_card: string
  reason_stolen_card: string
  reason_not_permitted: string
  reason_3ds_failed: string
}

/** A language the kit ships texts for. Any other language tag falls back to English. */
export type PaynetEasyLocale = "en" | "de" | "ru"

const en: PaynetEasyMessages = {
  ...LINK_MESSAGES.en,
  methodTitle: "Card (PaynetEasy)",
  payButton: "Pay {amount}",
  payOnPaymentPage: "Pay {amount} on the secure payment page",
  redirecting: "Taking you to the secure payment page…",
  processing: "Processing your payment…",
  confirming: "Confirming your payment with the bank…",
  declined: "The payment was declined.",
  declinedWithReason: "The payment was declined: {reason}",
  notConfirmed: "We are confirming your payment with the bank. Please do not pay again: your order appears here as soon as the bank confirms it.",
  payAgain: "Try again",
  notStarted: "The payment could not be started. Nothing was charged.",
  orderPlaced: "Thank you! Order #{display_id} is placed.",
  cardNumber: "Card number",
  expiry: "Expiry (MM/YY)",
  cvv: "CVV",
  holder: "Name on card",
  saveCard: "Save this card for next time",
  savedCards: "Saved cards",
  useSavedCard: "Pay with {brand} •••• {last4}",
  deleteCard: "Remove",
  noSavedCards: "No saved cards.",
  invalidNumber: "Check the card number.",
  invalidExpiry: "Check the expiry date.",
  invalidCvv: "Check the security code.",
  invalidHolder: "Enter the name as printed on the card.",
  threeDSecure: "Your bank asks you to confirm the payment…",
  reason_insufficient_funds: "Insufficient funds on the card.",
  reason_expired_card: "The card has expired.",
  reason_stolen_card: "The card cannot be used. Please use another card.",
  reason_not_permitted: "The bank did not permit this payment.",
  reason_3ds_failed: "The bank's verification (3-D Secure) failed.",
}

const de: PaynetEasyMessages = {
  ...LINK_MESSAGES.de,
  methodTitle: "Karte (PaynetEasy)",
  payButton: "{amount} bezahlen",
  payOnPaymentPage: "{amount} auf der sicheren Zahlungsseite bezahlen",
  redirecting: "Sie werden zur sicheren Zahlungsseite weitergeleitet…",
  processing: "Ihre Zahlung wird verarbeitet…",
  confirming: "Wir bestätigen Ihre Zahlung bei der Bank…",
  declined: "Die Zahlung wurde abgelehnt.",
  declinedWithReason: "Die Zahlung wurde abgelehnt: {reason}",
  notConfirmed: "Wir bestätigen Ihre Zahlung bei der Bank. Bitte zahlen Sie nicht noch einmal: Ihre Bestellung erscheint hier, sobald die Bank bestätigt.",
  payAgain: "Erneut versuchen",
  notStarted: "Die Zahlung konnte nicht gestartet werden. Es wurde nichts abgebucht.",
  orderPlaced: "Vielen Dank! Bestellung #{display_id} ist aufgegeben.",
  cardNumber: "Kartennummer",
  expiry: "Gültig bis (MM/JJ)",
  cvv: "Prüfnummer (CVV)",
  holder: "Name auf der Karte",
  saveCard: "Karte für das nächste Mal speichern",
  savedCards: "Gespeicherte Karten",
  useSavedCard: "Mit {brand} •••• {last4} bezahlen",
  deleteCard: "Entfernen",
  noSavedCards: "Keine gespeicherten Karten.",
  invalidNumber: "Bitte prüfen Sie die Kartennummer.",
  invalidExpiry: "Bitte prüfen Sie das Ablaufdatum.",
  invalidCvv: "Bitte prüfen Sie die Prüfnummer.",
  invalidHolder: "Bitte geben Sie den Namen wie auf der Karte ein.",
  threeDSecure: "Ihre Bank bittet Sie, die Zahlung zu bestätigen…",
  reason_insufficient_funds: "Die Karte ist nicht ausreichend gedeckt.",
  reason_expired_card: "Die Karte ist abgelaufen.",
  reason_stolen_card: "Die Karte kann nicht verwendet werden. Bitte nutzen Sie eine andere Karte.",
  reason_not_permitted: "Die Bank hat diese Zahlung nicht zugelassen.",
  reason_3ds_failed: "Die Prüfung durch Ihre Bank (3-D Secure) ist fehlgeschlagen.",
}

const ru: PaynetEasyMessages = {
  ...LINK_MESSAGES.ru,
  methodTitle: "Карта (PaynetEasy)",
  payButton: "Оплатить {amount}",
  payOnPaymentPage: "Оплатить {amount} на защищённой странице оплаты",
  redirecting: "Переходим на защищённую страницу оплаты…",
  processing: "Обрабатываем платёж…",
  confirming: "Подтверждаем платёж в банке…",
  declined: "Платёж отклонён.",
  declinedWithReason: "Платёж отклонён: {reason}",
  notConfirmed: "Мы подтверждаем ваш платёж в банке. Пожалуйста, не оплачивайте повторно: заказ появится здесь, как только банк подтвердит платёж.",
  payAgain: "Попробовать снова",
  notStarted: "Не удалось начать оплату. Деньги не списаны.",
  orderPlaced: "Спасибо! Заказ №{display_id} оформлен.",
  cardNumber: "Номер карты",
  expiry: "Срок действия (ММ/ГГ)",
  cvv: "CVV",
  holder: "Имя на карте",
  saveCard: "Сохранить карту для следующих покупок",
  savedCards: "Сохранённые карты",
  useSavedCard: "Оплатить картой {brand} •••• {last4}",
  deleteCard: "Удалить",
  noSavedCards: "Нет сохранённых карт.",
  invalidNumber: "Проверьте номер карты.",
  invalidExpiry: "Проверьте срок действия.",
  invalidCvv: "Проверьте код безопасности.",
  invalidHolder: "Введите имя, как на карте.",
  threeDSecure: "Банк просит подтвердить платёж…",
  reason_insufficient_funds: "Недостаточно средств на карте.",
  reason_expired_card: "Срок действия карты истёк.",
  reason_stolen_card: "Эту карту нельзя использовать. Выберите другую карту.",
  reason_not_permitted: "Банк не разрешил этот платёж.",
  reason_3ds_failed: "Проверка банка (3-D Secure) не пройдена.",
}

/** The shipped texts by language. */
export const MESSAGES: Readonly<Record<PaynetEasyLocale, PaynetEasyMessages>> = { en, de, ru }

/**
 * The texts for `locale` ("de", "de-AT", "ru-RU"…; anything else is English, `constructor` too: own keys only) with
 * the store's `overrides` on top.
 */
export function createMessages(locale = "en", overrides: Partial<PaynetEasyMessages> = {}): PaynetEasyMessages {
  const lang = locale.toLowerCase().split(/[-_]/)[0] as PaynetEasyLocale
  return { ...(Object.prototype.hasOwnProperty.call(MESSAGES, lang) ? MESSAGES[lang] : en), ...overrides }
}

/** Fills `{name}` placeholders of a text; unknown placeholders stay as they are. */
export function format(text: string, values: Record<string, string | number | undefined> = {}): string {
  return text.replace(/\{(\w+)\}/g, (all, k: string) => (values[k] === undefined ? all : String(values[k])))
}

/**
 * Why a payment was declined, as a word that is safe to put in a URL (no gateway text, no id): the storefront's return
 * step sends the shopper back to checkout with `payment=declined&reason=<word>`, and the page shows
 * `returnNotice(searchParams, messages)`, in the shopper's language.
 */
export type DeclineReason = "insufficient_funds" | "expired_card" | "stolen_card" | "not_permitted" | "3ds_failed" | "declined"

// Gateway error codes (sandbox and PaynetEasy's decline codes) with a shopper-friendly text.
const REASON_BY_CODE: Record<string, Exclude<DeclineReason, "declined">> = {
  "101": "expired_card",
  "116": "insufficient_funds",
  "119": "not_permitted",
  "209": "stolen_card",
  "301": "3ds_failed",
}

/** The reason word for a gateway decline (`{ code: "116" }` → "insufficient_funds"); "declined" for any other code. */
export function declineReason(error?: { code?: string; message?: string } | null): DeclineReason {
  return (error?.code && REASON_BY_CODE[error.code]) || "declined"
}

/** The shopper's sentence for a reason word (`declineReason`'s, or a URL's `reason`); anything unknown is "declined". */
export function reasonMessage(messages: PaynetEasyMessages, reason?: string | null): string {
  const key = `reason_${reason}` as keyof PaynetEasyMessages
  const known = reason && reason !== "declined" && Object.values(REASON_BY_CODE).includes(reason as never)
  return known ? format(messages.declinedWithReason, { reason: messages[key] }) : messages.declined
}

/**
 * What the checkout page says after the return step sent the shopper back (`payment=declined&reason=…` or
 * `payment=pending`): the decline in the shopper's words, or "we are confirming your payment"; undefined otherwise.
 * `search` is the page's query (a string, URLSearchParams, or Next.js's `useSearchParams()`).
 */
export function returnNotice(search: string | { get(name: string): string | null } | null | undefined, messages: PaynetEasyMessages): string | undefined {
  const q = typeof search === "string" || !search ? new URLSearchParams(search ?? "") : search
  const payment = q.get("payment")
  if (payment === "declined") return reasonMessage(messages, q.get("reason"))
  if (payment === "pending") return messages.notConfirmed
  return undefined
}

/**
 * The shopper-facing message for a declined payment: the kit's own text for a known gateway error code, else the
 * gateway's reason after "The payment was declined:", else the plain "The payment was declined."
 */
export function declineMessage(messages: PaynetEasyMessages, error?: { code?: string; message?: string } | null): string {
  const known = error?.code ? REASON_BY_CODE[error.code] : undefined
  const reason = known ? messages[`reason_${known}`] : gatewayReason(error?.message)
  return reason ? format(messages.declinedWithReason, { reason }) : messages.declined
}

/**
 * The gateway's reason without its own "Declined:" lead-in (the kit's text already says declined), and without any
 * internal id; undefined when nothing is left but "declined (by …)" itself, so the decline reads as one sentence.
 */
function gatewayReason(message: string | undefined): string | undefined {
  const text = withoutIds(message ?? "").replace(/^\s*declined\s*[:\-–—]\s*/i, "").trim()
  if (!text || /^declined\b/i.test(text)) return undefined
  return text
}

// Medusa's and the plugin's record ids (payses_…, pay_…, order_…, cart_…, pnerp_…): never shown to a shopper.
const INTERNAL_ID = /\b[a-z]{2,8}_[0-9A-Za-z]{6,}\b/g

/** `text` with internal ids taken out (and the spacing and punctuation they leave tidied). */
export function withoutIds(text: string): string {
  return text.replace(INTERNAL_ID, "").replace(/\(\s*[,;]?\s*\)/g, "").replace(/\s+([,.;:)])/g, "$1").replace(/\s{2,}/g, " ").trim()
}

// Medusa's answer to completing a cart whose payment is not authorized (yet): the payment may still be in progress.
const NOT_AUTHORIZED = /not authori[sz]ed/i

/**
 * What a shopper sees when a request of the payment step failed. A refusal (4xx) that cannot hide a payment is an
 * error in plain words (`notStarted`); anything else (network failure, time-out, 5xx, 409 "already paid" or "busy",
 * or "not authorized" from cart completion) may hide a payment the bank is still deciding, so it is `pending`
 * with `notConfirmed`, which asks the shopper not to pay again.
 */
export function errorOutcome(messages: PaynetEasyMessages, error: unknown): { status: "pending" | "error"; message: string } {
  const status = (error as { status?: unknown } | null)?.status
  const message = String((error as { message?: unknown } | null)?.message ?? "")
  const refused = typeof status === "number" && status >= 400 && status < 500 && ![408, 409, 429].includes(status)
  if (!refused || NOT_AUTHORIZED.test(message)) return { status: "pending", message: messages.notConfirmed }
  return { status: "error", message: messages.notStarted }
}
