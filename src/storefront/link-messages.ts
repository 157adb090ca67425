/**
 * The payment-link page's texts (issue 50: Medusa's "Copy payment link" lands on the kit's page) in the kit's
 * languages. Kept apart from messages.ts's checkout texts so the two lists stay readable; messages.ts folds them into
 * `PaynetEasyMessages`, so a store overrides them the same way (`createMessages("de", { linkPaid: "…" })`).
 * Placeholders: {display_id} the order's number, {amount} the amount in the shopper's format, {reason} the reason.
 */

export interface PaymentLinkMessages {
  linkHeading: string
  linkHeadingNoOrder: string
  linkAmountDue: string
  linkItems: string
  linkItem: string
  linkQuantity: string
  linkUnitPrice: string
  linkResume: string
  linkHosted: string
  linkPaid: string
  linkReceipt: string
  linkCanceled: string
  linkOrderCanceled: string
  linkNotFound: string
  linkNotAnOrder: string
  linkNothingOwed: string
  linkDeclined: string
  linkConfirming: string
}

const en: PaymentLinkMessages = {
  linkHeading: "Payment for order #{display_id}",
  linkHeadingNoOrder: "Payment link",
  linkAmountDue: "Amount due",
  linkItems: "Your order",
  linkItem: "Item",
  linkQuantity: "Quantity",
  linkUnitPrice: "Unit price",
  linkResume: "A payment page for this link is already open; the button takes you back to it.",
  linkHosted: "You will be taken to the secure payment page of our payment provider, and back here afterwards.",
  linkPaid: "This payment link is already paid. Thank you.",
  linkReceipt: "Thank you. Your payment for order #{display_id} has been received.",
  linkCanceled: "This payment link has expired: the payment was canceled.",
  linkOrderCanceled: "This payment link has expired: the order was canceled.",
  linkNotFound: "This payment link does not exist or has expired.",
  linkNotAnOrder: "This payment link does not belong to an order.",
  linkNothingOwed: "Nothing is owed on this order.",
  linkDeclined: "Your last payment attempt was declined ({reason}). Nothing was charged; you can try again.",
  linkConfirming: "We are confirming your payment with the bank. Please do not pay again: this page shows the payment as soon as the bank confirms it.",
}

const de: PaymentLinkMessages = {
  linkHeading: "Zahlung für Bestellung #{display_id}",
  linkHeadingNoOrder: "Zahlungslink",
  linkAmountDue: "Offener Betrag",
  linkItems: "Ihre Bestellung",
  linkItem: "Artikel",
  linkQuantity: "Menge",
  linkUnitPrice: "Stückpreis",
  linkResume: "Für diesen Link ist bereits eine Zahlungsseite geöffnet; die Schaltfläche bringt Sie dorthin zurück.",
  linkHosted: "Sie werden zur sicheren Zahlungsseite unseres Zahlungsdienstleisters und danach hierher zurückgeleitet.",
  linkPaid: "Dieser Zahlungslink ist bereits bezahlt. Vielen Dank.",
  linkReceipt: "Vielen Dank. Ihre Zahlung für Bestellung #{display_id} ist eingegangen.",
  linkCanceled: "Dieser Zahlungslink ist abgelaufen: Die Zahlung wurde storniert.",
  linkOrderCanceled: "Dieser Zahlungslink ist abgelaufen: Die Bestellung wurde storniert.",
  linkNotFound: "Diesen Zahlungslink gibt es nicht, oder er ist abgelaufen.",
  linkNotAnOrder: "Dieser Zahlungslink gehört zu keiner Bestellung.",
  linkNothingOwed: "Für diese Bestellung ist nichts offen.",
  linkDeclined: "Ihr letzter Zahlungsversuch wurde abgelehnt ({reason}). Es wurde nichts abgebucht; Sie können es erneut versuchen.",
  linkConfirming: "Wir bestätigen Ihre Zahlung bei der Bank. Bitte zahlen Sie nicht noch einmal: Diese Seite zeigt die Zahlung, sobald die Bank bestätigt.",
}

const ru: PaymentLinkMessages = {
  linkHeading: "Оплата заказа №{display_id}",
  linkHeadingNoOrder: "Ссылка на оплату",
  linkAmountDue: "К оплате",
  linkItems: "Ваш заказ",
  linkItem: "Товар",
  linkQuantity: "Количество",
  linkUnitPrice: "Цена за единицу",
  linkResume: "Страница оплаты по этой ссылке уже открыта; кнопка вернёт вас на неё.",
  linkHosted: "Вы перейдёте на защищённую страницу оплаты нашего платёжного провайдера, а затем вернётесь сюда.",
  linkPaid: "Эта ссылка уже оплачена. Спасибо.",
  linkReceipt: "Спасибо. Оплата заказа №{display_id} получена.",
  linkCanceled: "Срок действия ссылки истёк: платёж отменён.",
  linkOrderCanceled: "Срок действия ссылки истёк: заказ отменён.",
  linkNotFound: "Такой ссылки на оплату нет, или срок её действия истёк.",
  linkNotAnOrder: "Эта ссылка на оплату не относится к заказу.",
  linkNothingOwed: "По этому заказу ничего не нужно оплачивать.",
  linkDeclined: "Последняя попытка оплаты отклонена ({reason}). Деньги не списаны; можно попробовать снова.",
  linkConfirming: "Мы подтверждаем ваш платёж в банке. Пожалуйста, не оплачивайте повторно: эта страница покажет оплату, как только банк её подтвердит.",
}

/** The payment-link texts by language (the same languages as messages.ts's `MESSAGES`). */
export const LINK_MESSAGES = { en, de, ru } as const
