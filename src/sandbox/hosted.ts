/**
 * The payer-facing routes under the prefix: /form/<token> (hosted card or payout page), /acs/<token> (3-D Secure
 * challenge), /result/<token> (waits while processing, then the final auto-submitting form to redirect_url).
 * A token names one order; page flow: form → result ⇄ acs → result → merchant's redirect_url.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Refusal } from "./api-context"
import { pageUrl } from "./api-replies"
import { destinationOf } from "./api-payouts"
import { behaviourFromCvv, summariseCard } from "./cards"
import type { Engine } from "./engine"
import { parseForm, readBody, redirect, sendHtml, sendText } from "./http-io"
import { finalRedirectParams } from "./outcome-params"
import type { ResolvedOptions } from "./options"
import { ACS_PASSWORD, acsPage, cardFormPage, finalRedirectPage, payoutFormPage, resultPage, waitPage } from "./pages"
import { latestTxn, type Order, type Store } from "./state"

export interface PageCtx {
  store: Store
  engine: Engine
  opts: ResolvedOptions
  origin: string
}

export async function handlePage(
  c: PageCtx,
  kind: string,
  token: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const orderid = c.store.byPageToken.get(token)
  const order = orderid === undefined ? undefined : c.store.orders.get(orderid)
  if (!order) return sendText(res, 404, "Unknown or expired page")
  if (req.method !== "GET" && req.method !== "POST") return sendText(res, 405, "Method not allowed", { allow: "GET, POST" })
  const fields = req.method === "POST" ? parseForm(await readBody(req)).fields : {}
  const result = pageUrl(c, "result", token)
  if (kind === "form") return formPage(c, order, req.method === "POST" ? fields : undefined, res)
  if (kind === "acs") {
    if (!order.threeDS?.pending) return redirect(res, result)
    if (req.method === "POST" && fields.password !== undefined) {
      c.engine.threeDSAnswered(order, fields.password === ACS_PASSWORD, "ACS page")
      return redirect(res, result)
    }
    return sendHtml(res, 200, acsPage(order, pageUrl(c, "acs", token)))
  }
  if (kind === "result") {
    if (order.hosted && !order.hosted.submitted) return redirect(res, pageUrl(c, "form", token))
    if (order.threeDS?.pending) return redirect(res, pageUrl(c, "acs", token))
    if (latestTxn(order).status === "processing") return sendHtml(res, 200, waitPage(result))
    if (!order.urls.redirect) return sendHtml(res, 200, resultPage(latestTxn(order).status))
    return sendHtml(res, 200, finalRedirectPage(order.urls.redirect, finalRedirectParams(order)))
  }
  return sendText(res, 404, "Unknown page")
}

function formPage(c: PageCtx, order: Order, posted: Record<string, string> | undefined, res: ServerResponse): void {
  const action = pageUrl(c, "form", order.pageToken)
  const result = pageUrl(c, "result", order.pageToken)
  if (!order.hosted || order.hosted.submitted) return redirect(res, result)
  const render = (error?: string) =>
    order.hosted?.page === "payout" ? payoutFormPage(order, action, error) : cardFormPage(order, action, error)
  if (!posted) return sendHtml(res, 200, render())
  if (order.hosted.page === "card") {
    const r = summariseCard({
      number: posted.credit_card_number ?? "", expMonth: posted.expire_month ?? "", expYear: posted.expire_year ?? "",
      holder: posted.card_printed_name ?? "", cvv2: posted.cvv2 ?? "",
    })
    if (!r.ok || !posted.cvv2) return sendHtml(res, 400, render(r.ok ? "Invalid cvv2" : r.message))
    order.card = r.card
    order.behaviour = behaviourFromCvv(posted.cvv2)
  } else {
    try {
      const d = destinationOf({ store: c.store, merchant: order.merchant }, posted)
      order.destination = d.destination
      order.card = d.card
    } catch (e) {
      if (e instanceof Refusal) return sendHtml(res, 400, render(e.message))
      throw e
    }
  }
  order.hosted.submitted = true
  c.engine.note(order, "hosted page submitted")
  c.engine.startInitial(order)
  return redirect(res, result)
}
