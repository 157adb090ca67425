/**
 * The plugin's own payment-link page (GET/POST /payneteasy/payment-collection/:id): plain HTML that works without
 * JavaScript and with a screen reader — one heading, the amount due, the order's lines in a table with headers, one
 * button in a form that POSTs back and is answered with a 303 to the gateway's hosted page; refusals and outcomes are
 * sentences in a live region. The shopper's language (page-words.ts); amounts in that language's format, from the
 * exact decimal string (Intl formats a string without going through a float). Pure.
 */
import { escapeHtml as esc } from "../../gateway/html-escape"
import { fill, pageLanguage, PAGE_WORDS, type PageWordKey } from "./page-words"
import type { PaymentLinkView } from "./link-view"

export type PageNotice = "pending" | "failed" | "declined" | "receipt" | undefined

export interface PageInput {
  view: PaymentLinkView
  lang: string
  /** the form's action: this page's own address */
  action: string
  notice?: PageNotice
  /** the gateway's reason for a decline (only with notice "declined", or the view's last decline) */
  reason?: string
}

export function formatAmount(amount: string, currency: string, lang: string): string {
  try {
    return new Intl.NumberFormat(lang, { style: "currency", currency }).format(amount as unknown as number)
  } catch {
    return `${amount} ${currency}`
  }
}

/** The HTTP status of a page for this view: 200 when it can be paid or is paid, 404/410 otherwise. */
export function pageStatus(view: PaymentLinkView): number {
  if (view.state === "payable" || view.state === "paid") return 200
  if (view.state === "expired" && view.why !== "not_found") return 410
  return view.state === "nothing_owed" ? 200 : 404
}

function refusalKey(view: PaymentLinkView): PageWordKey {
  switch (view.state) {
    case "paid":
      return "paid"
    case "expired":
      return view.why === "canceled" ? "canceled" : view.why === "order_canceled" ? "orderCanceled" : "notFound"
    case "not_an_order":
      return "notFound"
    case "nothing_owed":
      return "nothingOwed"
    default:
      return "expired"
  }
}

export function renderLinkPage(input: PageInput): string {
  const lang = pageLanguage(input.lang, undefined)
  const w = PAGE_WORDS[lang]
  const { view } = input
  const order = view.order?.display_id != null ? String(view.order.display_id) : ""
  const amount = view.amount && view.currency_code ? formatAmount(view.amount, view.currency_code, lang) : ""
  const heading = order ? fill(w.heading, { order }) : w.headingNoOrder
  const parts: string[] = []
  const say = (text: string, role: "status" | "alert" = "status") => parts.push(`<p role="${role}" class="${role}">${esc(text)}</p>`)

  if (view.state === "paid" && input.notice === "receipt" && order) say(fill(w.receipt, { order }))
  else if (view.state !== "payable") say(w[refusalKey(view)], view.state === "paid" ? "status" : "alert")
  else if (input.notice === "pending") say(w.pending)
  else if (input.notice === "failed") say(w.failed, "alert")
  else if (input.notice === "declined" || view.declined) say(fill(w.declined, { reason: input.reason ?? view.declined ?? "" }), "alert")

  if (view.state === "payable" || view.state === "paid") {
    if (amount) parts.push(`<p class="due">${esc(w.due)}: <strong>${esc(amount)}</strong></p>`)
    const items = view.order?.items ?? []
    if (items.length) {
      const rows = items
        .map((i) => `<tr><th scope="row">${esc(i.title)}</th><td>${esc(i.quantity)}</td><td>${esc(i.unit_price && view.currency_code ? formatAmount(i.unit_price, view.currency_code, lang) : "")}</td></tr>`)
        .join("")
      parts.push(
        `<table><caption>${esc(w.items)}</caption><thead><tr><th scope="col">${esc(w.item)}</th><th scope="col">${esc(w.quantity)}</th>` +
          `<th scope="col">${esc(w.price)}</th></tr></thead><tbody>${rows}</tbody></table>`
      )
    }
  }
  if (view.state === "payable" && input.notice !== "pending") {
    const again = input.notice === "declined" || input.notice === "failed" || !!view.declined
    if (view.session && !again) parts.push(`<p>${esc(w.resume)}</p>`)
    parts.push(
      `<form method="post" action="${esc(input.action)}">` +
        `<input type="hidden" name="lang" value="${esc(lang)}">` +
        `<button type="submit">${esc(fill(again ? w.payAgain : w.pay, { amount }))}</button></form>`,
      `<p class="note">${esc(w.hosted)}</p>`
    )
  }
  return (
    `<!doctype html><html lang="${esc(lang)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${esc(`${w.title}${order ? ` #${order}` : ""}`)}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${esc(heading)}</h1>${parts.join("")}</main></body></html>`
  )
}

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#111;background:#fafafa}" +
  "main{max-width:34rem;margin:0 auto;background:#fff;border:1px solid #ddd;border-radius:8px;padding:1.5rem}" +
  "h1{font-size:1.4rem;margin-top:0}table{border-collapse:collapse;width:100%;margin:1rem 0}" +
  "caption{text-align:left;font-weight:600;padding-bottom:.25rem}th,td{text-align:left;padding:.35rem .5rem;border-top:1px solid #eee}" +
  "td:last-child{text-align:right}button{font:inherit;font-weight:600;padding:.7rem 1.2rem;border-radius:6px;border:2px solid #1d4ed8;" +
  "background:#1d4ed8;color:#fff;cursor:pointer}button:focus{outline:3px solid #f59e0b;outline-offset:2px}" +
  ".alert{border-left:4px solid #b91c1c;padding-left:.75rem}.status{border-left:4px solid #15803d;padding-left:.75rem}.note{color:#444;font-size:.9rem}"
