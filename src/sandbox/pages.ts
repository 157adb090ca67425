/**
 * HTML of the pages a payer's browser sees: the hosted card form, the hosted payout destination form, the
 * "processing" wait page, the 3-D Secure ACS challenge, and the final page whose form auto-submits the final-redirect
 * parameters to the merchant's redirect_url (HTTP POST, notes §8). Plain HTML with stable ids so the shopper helper
 * (and Playwright) can drive them: #card-form, #payout-form, #acs-form, #final-redirect, meta refresh on the wait page.
 */
import { fromMinor } from "./money"
import { escapeHtml } from "../gateway/html-escape"
import type { Order } from "./state"

export const ACS_PASSWORD = "secret"

export const esc = escapeHtml

const page = (title: string, body: string, head = ""): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title>${head}` +
  `<style>body{font-family:sans-serif;max-width:28em;margin:2em auto}label{display:block;margin:.5em 0}` +
  `.note{color:#666;font-size:.9em}.error{color:#b00}</style></head><body>` +
  `<p class="note">PaynetEasy sandbox — test page, no real money moves.</p>${body}</body></html>`

/** What the payer is paying for: the shop's description (order_desc) and the amount; the ids stay out of the page. */
function summary(order: Order): string {
  const amount = order.currency ? `${fromMinor(order.amountMinor, order.currency)} ${esc(order.currency)}` : "0"
  const what = order.description ? `<b id="order-desc">${esc(order.description)}</b>` : "Your payment"
  return `<p>${what} — amount <b id="amount">${amount}</b></p>`
}

export function cardFormPage(order: Order, action: string, error?: string): string {
  return page(
    "Card payment",
    `<h1>Pay by card</h1>${summary(order)}` +
      (error ? `<p class="error" id="form-error">${esc(error)}</p>` : "") +
      `<form id="card-form" method="post" action="${esc(action)}">` +
      `<label>Card number <input name="credit_card_number" autocomplete="cc-number" required></label>` +
      `<label>Name on card <input name="card_printed_name" autocomplete="cc-name" required></label>` +
      `<label>Expiry month <input name="expire_month" size="2" required></label>` +
      `<label>Expiry year <input name="expire_year" size="4" required></label>` +
      `<label>CVV2 <input name="cvv2" size="4" type="password" required></label>` +
      `<button type="submit">Pay</button></form>` +
      `<p class="note">CVV2 123/1234 approve, 321 asks for 3-D Secure, 111 approves without it, 217 stays unknown, ` +
      `101/116/119/209 and anything else decline.</p>`,
  )
}

export function payoutFormPage(order: Order, action: string, error?: string): string {
  return page(
    "Payout destination",
    `<h1>Where should we send the money?</h1>${summary(order)}` +
      (error ? `<p class="error" id="form-error">${esc(error)}</p>` : "") +
      `<form id="payout-form" method="post" action="${esc(action)}">` +
      `<fieldset><legend>Card</legend>` +
      `<label>Card number <input name="credit_card_number"></label>` +
      `<label>Name on card <input name="card_printed_name"></label>` +
      `<label>Expiry month <input name="expire_month" size="2"></label>` +
      `<label>Expiry year <input name="expire_year" size="4"></label></fieldset>` +
      `<fieldset><legend>or bank account</legend>` +
      `<label>Account number <input name="account_number"></label>` +
      `<label>Bank name <input name="bank_name"></label>` +
      `<label>Bank branch <input name="bank_branch"></label></fieldset>` +
      `<button type="submit">Send</button></form>`,
  )
}

export function waitPage(selfUrl: string): string {
  return page(
    "Processing",
    `<h1 id="processing">Processing your payment…</h1><p>This page refreshes itself.</p>`,
    `<meta http-equiv="refresh" content="1;url=${esc(selfUrl)}">`,
  )
}

export function acsPage(order: Order, action: string): string {
  return page(
    "3-D Secure",
    `<h1>3-D Secure verification</h1>${summary(order)}` +
      `<p>Card ending ${esc(order.card?.lastFour ?? "")}. Enter the one-time password.</p>` +
      `<form id="acs-form" method="post" action="${esc(action)}">` +
      `<label>Password <input name="password" type="password" autofocus></label>` +
      `<button type="submit">Confirm</button></form>` +
      `<p class="note" id="hint">Hint: the password is “${ACS_PASSWORD}”. Anything else fails the authentication.</p>`,
  )
}

export function finalRedirectPage(returnUrl: string, params: Record<string, string>): string {
  const inputs = Object.entries(params)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join("")
  return page(
    "Returning to the shop",
    `<h1>Returning to the shop…</h1>` +
      `<form id="final-redirect" method="post" action="${esc(returnUrl)}">${inputs}` +
      `<noscript><button type="submit">Continue</button></noscript></form>` +
      `<script>document.getElementById("final-redirect").submit()</script>`,
  )
}

export function resultPage(status: string): string {
  return page("Payment finished", `<h1 id="final-status">Payment ${esc(status)}</h1><p>No return address was given.</p>`)
}
