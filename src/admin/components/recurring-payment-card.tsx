/**
 * One recurring payment as the order page shows it: schedule, amount, status, the gateway's recurring-payment-id, next
 * charge, why it is not set up or needs a person (reason), every charge with its renewal order linked, and Cancel
 * after a confirmation that says what cancelling does: it stops renewal orders in Medusa and asks the gateway to stop
 * the schedule (update-recurring-payment, finish date today). A cancelled one says which it was: stopped at the
 * gateway, or cancelled here only, with the reason (the gateway refused, or the stop could not be confirmed).
 * One that needs attention can be set up again (Retry set-up) once a person has checked the gateway: a recurring
 * payment the gateway did make is found by STATUS and adopted, never made twice. A past-due one whose card the gateway
 * can charge has "Retry the charge" (retry-charge-button.tsx). Orders are "#18" links, the card is the dashboard's one
 * masking, the admin who cancelled is named by e-mail (issue 35).
 */
import { Button, Heading, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { errorText } from "../lib/hooks"
import { useCancelRecurringPayment, useRetryRecurringSetUp, type RecurringPayment } from "../lib/recurring"
import { useWords } from "../lib/use-words"
import { Field } from "./field"
import { Status } from "./format"
import { RetryChargeButton } from "./retry-charge-button"
import { orderRef } from "../lib/formatters"
import { isCancellable, isCharging } from "../../core/recurring/recurring-phase"

/** What the gateway's schedule did when it was cancelled here (models/recurring-payment.ts `gateway_cancel`). */
function gatewayStop(rp: RecurringPayment, t: ReturnType<typeof useWords>["t"]): { text: string; ok: boolean } | null {
  if (rp.status !== "cancelled") return null
  switch (rp.gateway_cancel) {
    case "stopped":
      return { ok: true, text: t("payneteasy.recurring.stopped") }
    case "refused":
      return { ok: false, text: t("payneteasy.recurring.refused", { reason: rp.gateway_cancel_reason }) }
    case "unknown":
    case "pending":
      return { ok: false, text: t("payneteasy.recurring.unconfirmed", { reason: rp.gateway_cancel_reason ?? t("payneteasy.recurring.noAnswerYet") }) }
    default:
      return rp.recurring_payment_id ? { ok: false, text: t("payneteasy.recurring.notAsked") } : null
  }
}

export function RecurringPaymentCard({ rp }: { rp: RecurringPayment }) {
  const cancel = useCancelRecurringPayment()
  const retry = useRetryRecurringSetUp()
  const prompt = usePrompt()
  const w = useWords()
  const { t } = w
  const money = w.money

  const onRetry = () =>
    retry.mutate(rp.id, {
      onSuccess: ({ recurring_payment: r }) =>
        r.status === "active"
          ? toast.success(t("payneteasy.recurring.setUp"))
          : r.status === "pending"
            ? toast.info(t("payneteasy.recurring.settingUpAgain"), { description: t("payneteasy.recurring.settingUpAgainNote") })
            : toast.warning(t("payneteasy.recurring.retryOutcome", { status: w.status("recurring", r.status).label }), { description: r.reason ?? undefined }),
      onError: (e) => toast.error(errorText(e)),
    })

  const stop = gatewayStop(rp, t)
  const canCancel = isCancellable(rp.status) || (rp.status === "cancelled" && !!rp.recurring_payment_id && rp.gateway_cancel !== "stopped")

  const onCancel = async () => {
    const ok = await prompt({
      title: t("payneteasy.recurring.cancelTitle"),
      description: t("payneteasy.recurring.cancelDescription", { what: `${money(rp.amount, rp.currency_code)} ${w.schedule(rp)}`, limits: t("payneteasy.recurring.cancelLimits") }),
      confirmText: t("payneteasy.recurring.cancelConfirm"),
      cancelText: t("payneteasy.recurring.keep"),
    })
    if (!ok) return
    cancel.mutate(rp.id, {
      onSuccess: (r) =>
        r.gateway_cancelled
          ? toast.success(t("payneteasy.recurring.cancelledAndStopped"), { description: r.note })
          : toast.warning(t("payneteasy.recurring.cancelledHereOnly"), { description: r.note }),
      onError: (e) => toast.error(errorText(e)),
    })
  }

  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="payneteasy-recurring-payment" data-id={rp.id}>
      <div className="flex items-center justify-between gap-x-3">
        <Heading level="h3">
          {money(rp.amount, rp.currency_code)} {w.schedule(rp)}
        </Heading>
        <span data-testid="payneteasy-recurring-status">
          <Status group="recurring" value={rp.status} />
        </span>
      </div>
      <div className="grid grid-cols-2 gap-4">
        <Field label={t("payneteasy.recurring.gatewayId")} value={rp.recurring_payment_id} testId="payneteasy-recurring-gateway-id" />
        <Field label={t("payneteasy.recurring.card")} value={rp.card ? w.card(rp.card.brand, rp.card.last4) : null} testId="payneteasy-recurring-card" mono={false} />
        <Field label={t("payneteasy.recurring.created")} value={w.date(rp.created_at)} mono={false} />
        <Field label={t("payneteasy.recurring.nextCharge")} value={isCharging(rp.status) ? w.date(rp.next_charge_at) : "—"} testId="payneteasy-recurring-next" mono={false} />
        {rp.cancelled_at && (
          <Field
            label={t("payneteasy.recurring.cancelled")}
            value={rp.cancelled_by ? t("payneteasy.retry.cancelledBy", { when: w.date(rp.cancelled_at), who: rp.cancelled_by_email ?? rp.cancelled_by }) : w.date(rp.cancelled_at)}
            testId="payneteasy-recurring-cancelled"
            mono={false}
          />
        )}
      </div>
      {stop && (
        <Text size="small" className={stop.ok ? "text-ui-fg-subtle" : "text-ui-fg-error"} data-testid="payneteasy-recurring-gateway-stop" data-stopped={stop.ok}>
          {stop.text}
        </Text>
      )}
      {rp.reason && (
        <Text size="small" className="text-ui-fg-error" data-testid="payneteasy-recurring-reason">{rp.reason}</Text>
      )}
      {rp.charges.length === 0 ? (
        <Text size="small" className="text-ui-fg-subtle" data-testid="payneteasy-recurring-no-charges">{t("payneteasy.recurring.noCharges")}</Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("payneteasy.recurring.charged")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.recurring.status")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.recurring.amount")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.recurring.renewalOrder")}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rp.charges.map((c) => (
              <Table.Row key={c.id} data-testid="payneteasy-recurring-charge">
                <Table.Cell className="whitespace-nowrap">{w.date(c.charged_at)}</Table.Cell>
                <Table.Cell>
                  <Status group="recurringCharge" value={c.status} />
                  {c.error_message || c.note ? (
                    <Text size="xsmall" className="text-ui-fg-subtle">{[c.error_message, c.note].filter(Boolean).join(" — ")}</Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell className="whitespace-nowrap">{money(c.amount, c.currency_code)}</Table.Cell>
                <Table.Cell>
                  {c.renewal_order_id ? (
                    <Link to={`/orders/${c.renewal_order_id}`} className="break-all text-ui-fg-interactive" data-testid="payneteasy-renewal-order">
                      {c.renewal_order_display_id != null ? orderRef(c.renewal_order_display_id) : c.renewal_order_id}
                    </Link>
                  ) : (
                    "—"
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
      {rp.status === "past_due" && (
        <div className="flex items-center justify-between gap-x-3" data-testid="payneteasy-recurring-past-due">
          {rp.can_retry_charge ? (
            <>
              <Text size="xsmall" className="text-ui-fg-muted">{t("payneteasy.retry.hint")}</Text>
              <RetryChargeButton
                target={{ url: `/admin/payneteasy/recurring-payments/${rp.id}/retry-charge`, amount: rp.amount, currency: rp.currency_code, card: rp.card }}
              />
            </>
          ) : (
            <Text size="xsmall" className="text-ui-fg-muted" data-testid="payneteasy-recurring-no-card">{t("payneteasy.retry.noCard")}</Text>
          )}
        </div>
      )}
      {rp.status === "needs_attention" && !rp.recurring_payment_id && (
        <div className="flex items-center justify-between gap-x-3">
          <Text size="xsmall" className="text-ui-fg-muted">{t("payneteasy.recurring.retryNote")}</Text>
          <Button size="small" variant="secondary" className="shrink-0" onClick={onRetry} isLoading={retry.isPending} data-testid="payneteasy-recurring-retry">
            {t("payneteasy.recurring.retrySetUp")}
          </Button>
        </div>
      )}
      {canCancel && (
        <div className="flex items-center justify-between gap-x-3">
          <Text size="xsmall" className="text-ui-fg-muted">{t("payneteasy.recurring.cancelLimits")}</Text>
          <Button size="small" variant="danger" className="shrink-0" onClick={onCancel} isLoading={cancel.isPending} data-testid="payneteasy-recurring-cancel">
            {rp.status === "cancelled" ? t("payneteasy.recurring.stopAtGateway") : t("payneteasy.recurring.cancelSubscription")}
          </Button>
        </div>
      )}
    </div>
  )
}
