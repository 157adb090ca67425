/**
 * The kit's shopper-facing texts in English, German and Russian (PaynetEasy's markets), and the one function that
 * picks a text: a store overrides any of them per language (`createMessages("de", { payButton: "Jetzt zahlen" })`).
 * Gateway decline reasons are mapped to a short shopper message by the gateway's error code when it is a known one;
 * otherwise the gateway's own reason is shown after a generic lead-in.
 */

/** Every text the kit shows. `{amount}`-style placeholders are filled by `format`. */
export interface PaynetEasyMessages {
  methodTitle: string
  payButton: string
  payOnPaymentPage: string
  redirecting: string
  processing: string
  confirming: string
  declined: string
  declinedWithReason: string
  notConfirmed: string
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
  methodTitle: "Card (PaynetEasy)",
  payButton: "Pay {amount}",
  payOnPaymentPage: "Pay {amount} on the secure payment page",
  redirecting: "Taking you to the secure payment page…",
  processing: "Processing your payment…",
  confirming: "Confirming your payment with the bank…",
  declined: "The payment was declined.",
  declinedWithReason: "The payment was declined: {reason}",
  notConfirmed: "We could not confirm the payment yet. If money was taken, the order will appear shortly.",
  payAgain: "Try again",
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
  methodTitle: "Karte (PaynetEasy)",
  payButton: "{amount} bezahlen",
  payOnPaymentPage: "{amount} auf der sicheren Zahlungsseite bezahlen",
  redirecting: "Sie werden zur sicheren Zahlungsseite weitergeleitet…",
  processing: "Ihre Zahlung wird verarbeitet…",
  confirming: "Wir bestätigen Ihre Zahlung bei der Bank…",
  declined: "Die Zahlung wurde abgelehnt.",
  declinedWithReason: "Die Zahlung wurde abgelehnt: {reason}",
  notConfirmed: "Die Zahlung ist noch nicht bestätigt. Falls Geld abgebucht wurde, erscheint die Bestellung in Kürze.",
  payAgain: "Erneut versuchen",
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
  methodTitle: "Карта (PaynetEasy)",
  payButton: "Оплатить {amount}",
  payOnPaymentPage: "Оплатить {amount} на защищённой странице оплаты",
  redirecting: "Переходим на защищённую страницу оплаты…",
  processing: "Обрабатываем платёж…",
  confirming: "Подтверждаем платёж в банке…",
  declined: "Платёж отклонён.",
  declinedWithReason: "Платёж отклонён: {reason}",
  notConfirmed: "Платёж пока не подтверждён. Если деньги списаны, заказ скоро появится.",
  payAgain: "Попробовать снова",
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
 * The texts for `locale` ("de", "de-AT", "ru-RU"…; anything else is English) with the store's `overrides` on top.
 */
export function createMessages(locale = "en", overrides: Partial<PaynetEasyMessages> = {}): PaynetEasyMessages {
  const lang = locale.toLowerCase().split(/[-_]/)[0] as PaynetEasyLocale
  return { ...(MESSAGES[lang] ?? en), ...overrides }
}

/** Fills `{name}` placeholders of a text; unknown placeholders stay as they are. */
export function format(text: string, values: Record<string, string | number | undefined> = {}): string {
  return text.replace(/\{(\w+)\}/g, (all, k: string) => (values[k] === undefined ? all : String(values[k])))
}

// Gateway error codes (sandbox and PaynetEasy's decline codes) with a shopper-friendly text.
const REASON_BY_CODE: Record<string, keyof PaynetEasyMessages> = {
  "101": "reason_expired_card",
  "116": "reason_insufficient_funds",
  "119": "reason_not_permitted",
  "209": "reason_stolen_card",
  "301": "reason_3ds_failed",
}

/**
 * The shopper-facing message for a declined payment: the kit's own text for a known gateway error code, else the
 * gateway's reason after "The payment was declined:", else the plain "The payment was declined."
 */
export function declineMessage(messages: PaynetEasyMessages, error?: { code?: string; message?: string } | null): string {
  const known = error?.code ? REASON_BY_CODE[error.code] : undefined
  const reason = known ? messages[known] : error?.message?.trim()
  return reason ? format(messages.declinedWithReason, { reason }) : messages.declined
}
