/**
 * A recorded callback's processing as a span and two metrics (core/telemetry/metrics.ts: processed by outcome, and
 * its duration), wherever it runs: the `payneteasy.callback.received` subscriber, or the reconciliation tick that
 * re-runs a row left behind.
 *
 * Why a link and not a parent: processing runs later, in the worker, in a trace of its own (the subscriber's, or
 * Medusa's job span for the tick). The request that registered the payment (the store route creating a hosted-page
 * session, the direct flow's card step) put its trace context in the callback URL (core/checkout/callback-owner.ts `pne_trace`), the gateway
 * brought it back, and the callback log kept it with the row's params; the span links to it, so a trace backend
 * shows the checkout and, one click away, what its callbacks did. A row without it (nothing was traced then, an older
 * order, a payout, a saved-card or recurring charge, whose callback URLs are built elsewhere) gets no link.
 *
 * Attributes: the row's id, source, type and status, the payment session, gateway order and client order ids, and the
 * outcome processing wrote; nothing from the callback's own parameters (the row's params are never copied).
 */
import type { CallbackRow } from "../../modules/payneteasy/service"
import { TRACE_PARAM } from "../checkout/callback-owner"
import { inSpan, spanContextOfToken } from "../telemetry/otel"
import { recordCallbackProcessed } from "../telemetry/metrics"
import type { Attributes, Link } from "@medusajs/framework/opentelemetry/api"

type Row = Pick<CallbackRow, "id" | "source" | "type" | "status" | "orderid" | "client_orderid" | "session_id" | "params">

/** The link to the span of the request that registered the row's payment, when its callback URL carried one. */
export function creatorLink(row: Pick<CallbackRow, "params">): Link | undefined {
  const params = row.params as Record<string, unknown> | null | undefined
  const context = spanContextOfToken(params?.[TRACE_PARAM])
  return context ? { context, attributes: { "payneteasy.link": "payment registered" } } : undefined
}

function rowAttributes(row: Row): Attributes {
  const a: Attributes = {
    "payneteasy.callback.id": row.id,
    "payneteasy.callback.source": row.source,
    "payneteasy.callback.type": row.type,
    "payneteasy.callback.status": row.status,
    "payneteasy.gateway_order_id": row.orderid,
    "payneteasy.client_order_id": row.client_orderid,
  }
  if (row.session_id) a["payneteasy.payment_session_id"] = row.session_id
  return a
}

/** Runs the processing of `row` (`run` answers the row as processing left it) in its span, and counts its outcome. */
export async function observeCallbackProcessing<R extends { outcome: string }>(row: Row, run: () => Promise<R>): Promise<R> {
  const started = performance.now()
  const link = creatorLink(row)
  return inSpan("PaynetEasy callback process", { attributes: rowAttributes(row), links: link ? [link] : undefined }, async (span) => {
    try {
      const done = await run()
      span.setAttribute("payneteasy.callback.outcome", done.outcome)
      recordCallbackProcessed(done.outcome, (performance.now() - started) / 1000)
      return done
    } catch (error) {
      span.setAttribute("payneteasy.callback.outcome", "failed")
      recordCallbackProcessed("failed", (performance.now() - started) / 1000)
      throw error
    }
  })
}
