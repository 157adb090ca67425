/**
 * The words of the plugin's payment-link page, in the shopper's language (Accept-Language, or `?lang=`), English when
 * none of them is known. Placeholders: {order} the order's number, {amount} the amount in the shopper's format,
 * {reason} the gateway's reason. Every language has every key (page-html.unit.spec.ts checks it).
 */

export const PAGE_WORD_KEYS = [
  "title", "heading", "headingNoOrder", "due", "items", "item", "quantity", "price", "pay", "payAgain", "resume", "hosted",
  "paid", "receipt", "expired", "canceled", "orderCanceled", "notFound", "notAnOrder", "nothingOwed", "declined",
  "pending", "failed",
] as const
export type PageWordKey = (typeof PAGE_WORD_KEYS)[number]
export type PageWords = Record<PageWordKey, string>

const en: PageWords = {
  title: "Payment",
  heading: "Payment for order #{order}",
  headingNoOrder: "Payment link",
  due: "Amount due",
  items: "Your order",
  item: "Item",
  quantity: "Quantity",
  price: "Unit price",
  pay: "Pay {amount}",
  payAgain: "Try again: pay {amount}",
  resume: "A payment page for this link is already open; the button takes you back to it.",
  hosted: "You will be taken to the secure payment page of our payment provider, and back here afterwards.",
  paid: "This payment link is already paid. Thank you.",
  receipt: "Thank you. Your payment for order #{order} has been received.",
  expired: "This payment link has expired.",
  canceled: "This payment link has expired: the payment was canceled.",
  orderCanceled: "This payment link has expired: the order was canceled.",
  notFound: "This payment link does not exist or has expired.",
  notAnOrder: "This payment link does not belong to an order.",
  nothingOwed: "Nothing is owed on this order.",
  declined: "Your last payment attempt was declined ({reason}). Nothing was charged; you can try again.",
  pending: "We are confirming your payment with the bank. Please do not pay again; reload this page in a minute.",
  failed: "The payment page could not be opened. Nothing was charged; please try again.",
}

const de: PageWords = {
  title: "Zahlung",
  heading: "Zahlung für Bestellung #{order}",
  headingNoOrder: "Zahlungslink",
  due: "Offener Betrag",
  items: "Ihre Bestellung",
  item: "Artikel",
  quantity: "Menge",
  price: "Stückpreis",
  pay: "{amount} bezahlen",
  payAgain: "Erneut versuchen: {amount} bezahlen",
  resume: "Für diesen Link ist bereits eine Zahlungsseite geöffnet; die Schaltfläche bringt Sie dorthin zurück.",
  hosted: "Sie werden zur sicheren Zahlungsseite unseres Zahlungsdienstleisters und danach hierher zurückgeleitet.",
  paid: "Dieser Zahlungslink ist bereits bezahlt. Vielen Dank.",
  receipt: "Vielen Dank. Ihre Zahlung für Bestellung #{order} ist eingegangen.",
  expired: "Dieser Zahlungslink ist abgelaufen.",
  canceled: "Dieser Zahlungslink ist abgelaufen: Die Zahlung wurde storniert.",
  orderCanceled: "Dieser Zahlungslink ist abgelaufen: Die Bestellung wurde storniert.",
  notFound: "Diesen Zahlungslink gibt es nicht, oder er ist abgelaufen.",
  notAnOrder: "Dieser Zahlungslink gehört zu keiner Bestellung.",
  nothingOwed: "Für diese Bestellung ist nichts offen.",
  declined: "Ihr letzter Zahlungsversuch wurde abgelehnt ({reason}). Es wurde nichts belastet; Sie können es erneut versuchen.",
  pending: "Wir bestätigen Ihre Zahlung mit der Bank. Bitte nicht erneut bezahlen; laden Sie diese Seite in einer Minute neu.",
  failed: "Die Zahlungsseite konnte nicht geöffnet werden. Es wurde nichts belastet; bitte versuchen Sie es erneut.",
}

const fr: PageWords = {
  title: "Paiement",
  heading: "Paiement de la commande n° {order}",
  headingNoOrder: "Lien de paiement",
  due: "Montant dû",
  items: "Votre commande",
  item: "Article",
  quantity: "Quantité",
  price: "Prix unitaire",
  pay: "Payer {amount}",
  payAgain: "Réessayer : payer {amount}",
  resume: "Une page de paiement est déjà ouverte pour ce lien ; le bouton vous y ramène.",
  hosted: "Vous allez être dirigé vers la page de paiement sécurisée de notre prestataire, puis ramené ici.",
  paid: "Ce lien de paiement est déjà payé. Merci.",
  receipt: "Merci. Votre paiement pour la commande n° {order} a bien été reçu.",
  expired: "Ce lien de paiement a expiré.",
  canceled: "Ce lien de paiement a expiré : le paiement a été annulé.",
  orderCanceled: "Ce lien de paiement a expiré : la commande a été annulée.",
  notFound: "Ce lien de paiement n'existe pas ou a expiré.",
  notAnOrder: "Ce lien de paiement ne correspond à aucune commande.",
  nothingOwed: "Rien n'est dû sur cette commande.",
  declined: "Votre dernière tentative de paiement a été refusée ({reason}). Rien n'a été débité ; vous pouvez réessayer.",
  pending: "Nous confirmons votre paiement auprès de la banque. Ne payez pas une seconde fois ; rechargez cette page dans une minute.",
  failed: "La page de paiement n'a pas pu être ouverte. Rien n'a été débité ; veuillez réessayer.",
}

const es: PageWords = {
  title: "Pago",
  heading: "Pago del pedido n.º {order}",
  headingNoOrder: "Enlace de pago",
  due: "Importe pendiente",
  items: "Su pedido",
  item: "Artículo",
  quantity: "Cantidad",
  price: "Precio unitario",
  pay: "Pagar {amount}",
  payAgain: "Intentar de nuevo: pagar {amount}",
  resume: "Ya hay una página de pago abierta para este enlace; el botón le lleva de vuelta a ella.",
  hosted: "Le llevaremos a la página de pago segura de nuestro proveedor de pagos y después de vuelta aquí.",
  paid: "Este enlace de pago ya está pagado. Gracias.",
  receipt: "Gracias. Hemos recibido su pago del pedido n.º {order}.",
  expired: "Este enlace de pago ha caducado.",
  canceled: "Este enlace de pago ha caducado: el pago se canceló.",
  orderCanceled: "Este enlace de pago ha caducado: el pedido se canceló.",
  notFound: "Este enlace de pago no existe o ha caducado.",
  notAnOrder: "Este enlace de pago no pertenece a ningún pedido.",
  nothingOwed: "No hay nada pendiente en este pedido.",
  declined: "Su último intento de pago fue rechazado ({reason}). No se ha cobrado nada; puede intentarlo de nuevo.",
  pending: "Estamos confirmando su pago con el banco. No vuelva a pagar; recargue esta página dentro de un minuto.",
  failed: "No se pudo abrir la página de pago. No se ha cobrado nada; inténtelo de nuevo.",
}

const it: PageWords = {
  title: "Pagamento",
  heading: "Pagamento dell'ordine n. {order}",
  headingNoOrder: "Link di pagamento",
  due: "Importo dovuto",
  items: "Il tuo ordine",
  item: "Articolo",
  quantity: "Quantità",
  price: "Prezzo unitario",
  pay: "Paga {amount}",
  payAgain: "Riprova: paga {amount}",
  resume: "Per questo link è già aperta una pagina di pagamento; il pulsante ti riporta lì.",
  hosted: "Verrai portato alla pagina di pagamento sicura del nostro fornitore di pagamenti e poi di nuovo qui.",
  paid: "Questo link di pagamento è già stato pagato. Grazie.",
  receipt: "Grazie. Il tuo pagamento per l'ordine n. {order} è stato ricevuto.",
  expired: "Questo link di pagamento è scaduto.",
  canceled: "Questo link di pagamento è scaduto: il pagamento è stato annullato.",
  orderCanceled: "Questo link di pagamento è scaduto: l'ordine è stato annullato.",
  notFound: "Questo link di pagamento non esiste o è scaduto.",
  notAnOrder: "Questo link di pagamento non appartiene a nessun ordine.",
  nothingOwed: "Non c'è nulla da pagare per questo ordine.",
  declined: "Il tuo ultimo tentativo di pagamento è stato rifiutato ({reason}). Non è stato addebitato nulla; puoi riprovare.",
  pending: "Stiamo confermando il pagamento con la banca. Non pagare di nuovo; ricarica questa pagina tra un minuto.",
  failed: "Non è stato possibile aprire la pagina di pagamento. Non è stato addebitato nulla; riprova.",
}

const nl: PageWords = {
  title: "Betaling",
  heading: "Betaling voor bestelling #{order}",
  headingNoOrder: "Betaallink",
  due: "Te betalen",
  items: "Uw bestelling",
  item: "Artikel",
  quantity: "Aantal",
  price: "Stukprijs",
  pay: "{amount} betalen",
  payAgain: "Opnieuw proberen: {amount} betalen",
  resume: "Voor deze link is al een betaalpagina geopend; de knop brengt u daarheen terug.",
  hosted: "U gaat naar de beveiligde betaalpagina van onze betaalprovider en daarna terug naar hier.",
  paid: "Deze betaallink is al betaald. Dank u wel.",
  receipt: "Dank u wel. Uw betaling voor bestelling #{order} is ontvangen.",
  expired: "Deze betaallink is verlopen.",
  canceled: "Deze betaallink is verlopen: de betaling is geannuleerd.",
  orderCanceled: "Deze betaallink is verlopen: de bestelling is geannuleerd.",
  notFound: "Deze betaallink bestaat niet of is verlopen.",
  notAnOrder: "Deze betaallink hoort bij geen enkele bestelling.",
  nothingOwed: "Voor deze bestelling staat niets open.",
  declined: "Uw laatste betaalpoging is geweigerd ({reason}). Er is niets afgeschreven; u kunt het opnieuw proberen.",
  pending: "We bevestigen uw betaling bij de bank. Betaal niet opnieuw; laad deze pagina over een minuut opnieuw.",
  failed: "De betaalpagina kon niet worden geopend. Er is niets afgeschreven; probeer het opnieuw.",
}

const pl: PageWords = {
  title: "Płatność",
  heading: "Płatność za zamówienie nr {order}",
  headingNoOrder: "Link do płatności",
  due: "Kwota do zapłaty",
  items: "Twoje zamówienie",
  item: "Produkt",
  quantity: "Ilość",
  price: "Cena jednostkowa",
  pay: "Zapłać {amount}",
  payAgain: "Spróbuj ponownie: zapłać {amount}",
  resume: "Strona płatności dla tego linku jest już otwarta; przycisk zaprowadzi Cię do niej z powrotem.",
  hosted: "Przejdziesz na bezpieczną stronę płatności naszego operatora, a potem wrócisz tutaj.",
  paid: "Ten link do płatności jest już opłacony. Dziękujemy.",
  receipt: "Dziękujemy. Otrzymaliśmy Twoją płatność za zamówienie nr {order}.",
  expired: "Ten link do płatności wygasł.",
  canceled: "Ten link do płatności wygasł: płatność została anulowana.",
  orderCanceled: "Ten link do płatności wygasł: zamówienie zostało anulowane.",
  notFound: "Ten link do płatności nie istnieje lub wygasł.",
  notAnOrder: "Ten link do płatności nie należy do żadnego zamówienia.",
  nothingOwed: "Za to zamówienie nie ma nic do zapłaty.",
  declined: "Ostatnia próba płatności została odrzucona ({reason}). Nic nie zostało pobrane; możesz spróbować ponownie.",
  pending: "Potwierdzamy Twoją płatność w banku. Nie płać ponownie; odśwież tę stronę za minutę.",
  failed: "Nie udało się otworzyć strony płatności. Nic nie zostało pobrane; spróbuj ponownie.",
}

const pt: PageWords = {
  title: "Pagamento",
  heading: "Pagamento da encomenda n.º {order}",
  headingNoOrder: "Link de pagamento",
  due: "Valor em dívida",
  items: "A sua encomenda",
  item: "Artigo",
  quantity: "Quantidade",
  price: "Preço unitário",
  pay: "Pagar {amount}",
  payAgain: "Tentar de novo: pagar {amount}",
  resume: "Já existe uma página de pagamento aberta para este link; o botão leva-o de volta a ela.",
  hosted: "Será levado para a página de pagamento segura do nosso prestador de pagamentos e depois de volta aqui.",
  paid: "Este link de pagamento já está pago. Obrigado.",
  receipt: "Obrigado. O seu pagamento da encomenda n.º {order} foi recebido.",
  expired: "Este link de pagamento expirou.",
  canceled: "Este link de pagamento expirou: o pagamento foi cancelado.",
  orderCanceled: "Este link de pagamento expirou: a encomenda foi cancelada.",
  notFound: "Este link de pagamento não existe ou expirou.",
  notAnOrder: "Este link de pagamento não pertence a nenhuma encomenda.",
  nothingOwed: "Não há nada em dívida nesta encomenda.",
  declined: "A sua última tentativa de pagamento foi recusada ({reason}). Nada foi cobrado; pode tentar de novo.",
  pending: "Estamos a confirmar o seu pagamento com o banco. Não pague de novo; recarregue esta página daqui a um minuto.",
  failed: "Não foi possível abrir a página de pagamento. Nada foi cobrado; tente de novo.",
}

const ru: PageWords = {
  title: "Оплата",
  heading: "Оплата заказа № {order}",
  headingNoOrder: "Ссылка на оплату",
  due: "К оплате",
  items: "Ваш заказ",
  item: "Товар",
  quantity: "Количество",
  price: "Цена за единицу",
  pay: "Оплатить {amount}",
  payAgain: "Попробовать снова: оплатить {amount}",
  resume: "Страница оплаты по этой ссылке уже открыта; кнопка вернёт вас на неё.",
  hosted: "Вы перейдёте на защищённую страницу оплаты нашего платёжного провайдера, а затем вернётесь сюда.",
  paid: "Эта ссылка уже оплачена. Спасибо.",
  receipt: "Спасибо. Ваш платёж по заказу № {order} получен.",
  expired: "Срок действия этой ссылки на оплату истёк.",
  canceled: "Срок действия этой ссылки истёк: платёж отменён.",
  orderCanceled: "Срок действия этой ссылки истёк: заказ отменён.",
  notFound: "Такой ссылки на оплату нет или срок её действия истёк.",
  notAnOrder: "Эта ссылка на оплату не относится ни к одному заказу.",
  nothingOwed: "По этому заказу ничего не нужно оплачивать.",
  declined: "Последняя попытка оплаты отклонена ({reason}). Деньги не списаны; можно попробовать снова.",
  pending: "Мы подтверждаем ваш платёж в банке. Не оплачивайте повторно; обновите эту страницу через минуту.",
  failed: "Не удалось открыть страницу оплаты. Деньги не списаны; попробуйте снова.",
}

const uk: PageWords = {
  title: "Оплата",
  heading: "Оплата замовлення № {order}",
  headingNoOrder: "Посилання на оплату",
  due: "До сплати",
  items: "Ваше замовлення",
  item: "Товар",
  quantity: "Кількість",
  price: "Ціна за одиницю",
  pay: "Сплатити {amount}",
  payAgain: "Спробувати знову: сплатити {amount}",
  resume: "Сторінка оплати за цим посиланням уже відкрита; кнопка поверне вас на неї.",
  hosted: "Ви перейдете на захищену сторінку оплати нашого платіжного провайдера, а потім повернетеся сюди.",
  paid: "Це посилання вже сплачено. Дякуємо.",
  receipt: "Дякуємо. Ваш платіж за замовлення № {order} отримано.",
  expired: "Термін дії цього посилання на оплату минув.",
  canceled: "Термін дії цього посилання минув: платіж скасовано.",
  orderCanceled: "Термін дії цього посилання минув: замовлення скасовано.",
  notFound: "Такого посилання на оплату немає або термін його дії минув.",
  notAnOrder: "Це посилання на оплату не належить жодному замовленню.",
  nothingOwed: "За цим замовленням нічого не потрібно сплачувати.",
  declined: "Останню спробу оплати відхилено ({reason}). Кошти не списано; можна спробувати знову.",
  pending: "Ми підтверджуємо ваш платіж у банку. Не сплачуйте повторно; оновіть цю сторінку за хвилину.",
  failed: "Не вдалося відкрити сторінку оплати. Кошти не списано; спробуйте знову.",
}

export const PAGE_WORDS: Record<string, PageWords> = { en, de, fr, es, it, nl, pl, pt, ru, uk }

/**
 * The shopper's language: `?lang=` first, then Accept-Language by its q-values, else English. Only the table's own
 * keys are languages (`?lang=constructor` is none: fuzzing found it answered 500).
 */
export function pageLanguage(langParam: unknown, acceptLanguage: unknown): string {
  const known = (tag: string) => {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0]
    return base && Object.prototype.hasOwnProperty.call(PAGE_WORDS, base) ? base : undefined
  }
  if (typeof langParam === "string" && known(langParam)) return known(langParam)!
  if (typeof acceptLanguage === "string") {
    const ranked = acceptLanguage
      .split(",")
      .map((part, i) => {
        const [tag, ...params] = part.split(";")
        const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean)
        return { tag, q: q === undefined ? 1 : Number(q), i }
      })
      .filter((x) => x.q > 0)
      .sort((a, b) => b.q - a.q || a.i - b.i)
    for (const r of ranked) {
      const k = known(r.tag)
      if (k) return k
    }
  }
  return "en"
}

export const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (m, k) => values[k] ?? m)
