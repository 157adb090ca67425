/**
 * One recurring payment as the order page shows it: schedule, amount, status, the gateway's recurring-payment-id, next
 * charge, why it is not set up or needs a person (reason), every charge with its renewal order linked, and Cancel
 * after a confirmation that says honestly what cancelling does: PaynetEasy documents no call that stops a recurring
 * payment (README), so cancelling stops renewal orders in Medusa and the merchant stops it in the PaynetEasy portal.
 * One that needs attention can be set up again (Retry set-up) once a person has checked the gateway: a recurring
 * payment the gateway did make is found by STATUS and adopted, never made twice.
 */
import { Button, Heading, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { errorText } from "../lib/hooks"
import { useCancelRecurringPayment, useRetryRecurringSetUp, type RecurringPayment } from "../lib/recurring"
import { describeSchedule } from "../lib/subscription-schedule"
import { Field } from "./field"
import { Status, when } from "./format"

const money = (amount: string | null | undefined, currency: string | null | undefined) =>
  amount ? `${amount} ${(currency ?? "").toUpperCase()}` : "—"

const CANCELLABLE = new Set(["active", "needs_attention"])
const CANCEL_LIMITS =
  "PaynetEasy documents no API call that stops a recurring payment: cancelling here stops renewal orders in Medusa; stop it in the PaynetEasy merchant portal too (charges it still makes are flagged for a refund)."

const RETRY_NOTE =
  "Set it up again once the gateway answers: a recurring payment the gateway already made for it is found and adopted, never made twice."

export function RecurringPaymentCard({ rp }: { rp: RecurringPayment }) {
  const cancel = useCancelRecurringPayment()
  const retry = useRetryRecurringSetUp()
  const prompt = usePrompt()

  const onRetry = () =>
    retry.mutate(rp.id, {
      onSuccess: ({ recurring_payment: r }) =>
        r.status === "active"
          ? toast.success("Recurring payment set up")
          : r.status === "pending"
            ? toast.info("Setting it up again", { description: "The gateway did not answer yet; Medusa retries in a few seconds." })
            : toast.warning(`Recurring payment ${r.status.replace(/_/g, " ")}`, { description: r.reason ?? undefined }),
      onError: (e) => toast.error(errorText(e)),
    })

  const onCancel = async () => {
    const ok = await prompt({
      title: "Cancel this subscription?",
      description: `${money(rp.amount, rp.currency_code)} ${describeSchedule(rp)}. ${CANCEL_LIMITS} This cannot be undone.`,
      confirmText: "Yes, cancel it",
      cancelText: "Keep it",
    })
    if (!ok) return
    cancel.mutate(rp.id, {
      onSuccess: (r) => toast.success("Subscription cancelled", { description: r.note }),
      onError: (e) => toast.error(errorText(e)),
    })
  }

  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="payneteasy-recurring-payment" data-id={rp.id}>
      <div className="flex items-center justify-between gap-x-3">
        <Heading level="h3">
          {money(rp.amount, rp.currency_code)} {describeSchedule(rp)}
        </Heading>
        <span data-testid="payneteasy-recurring-status">
          <Status value={rp.status} />
        </span>
      </div>
      <div className="grid grid-cols-2 gap-4">
        <Field label="Gateway recurring payment" value={rp.recurring_payment_id} testId="payneteasy-recurring-gateway-id" />
        <Field label="Card" value={rp.card ? `${rp.card.brand ?? "Card"} •••• ${rp.card.last4}` : null} testId="payneteasy-recurring-card" mono={false} />
        <Field label="Created" value={when(rp.created_at)} mono={false} />
        <Field label="Next charge" value={rp.status === "active" ? when(rp.next_charge_at) : "—"} testId="payneteasy-recurring-next" mono={false} />
        {rp.cancelled_at && (
          <Field label="Cancelled" value={`${when(rp.cancelled_at)}${rp.cancelled_by ? ` by ${rp.cancelled_by}` : ""}`} mono={false} />
        )}
      </div>
      {rp.reason && (
        <Text size="small" className="text-ui-fg-error" data-testid="payneteasy-recurring-reason">{rp.reason}</Text>
      )}
      {rp.charges.length === 0 ? (
        <Text size="small" className="text-ui-fg-subtle" data-testid="payneteasy-recurring-no-charges">No renewal charges yet.</Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Charged</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell>Amount</Table.HeaderCell>
              <Table.HeaderCell>Renewal order</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rp.charges.map((c) => (
              <Table.Row key={c.id} data-testid="payneteasy-recurring-charge">
                <Table.Cell className="whitespace-nowrap">{when(c.charged_at)}</Table.Cell>
                <Table.Cell>
                  <Status value={c.status} />
                  {c.error_message || c.note ? (
                    <Text size="xsmall" className="text-ui-fg-subtle">{[c.error_message, c.note].filter(Boolean).join(" — ")}</Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell className="whitespace-nowrap">{money(c.amount, c.currency_code)}</Table.Cell>
                <Table.Cell>
                  {c.renewal_order_id ? (
                    <Link to={`/orders/${c.renewal_order_id}`} className="break-all text-ui-fg-interactive" data-testid="payneteasy-renewal-order">
                      {c.renewal_order_id}
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
      {rp.status === "needs_attention" && !rp.recurring_payment_id && (
        <div className="flex items-center justify-between gap-x-3">
          <Text size="xsmall" className="text-ui-fg-muted">{RETRY_NOTE}</Text>
          <Button size="small" variant="secondary" className="shrink-0" onClick={onRetry} isLoading={retry.isPending} data-testid="payneteasy-recurring-retry">
            Retry set-up
          </Button>
        </div>
      )}
      {CANCELLABLE.has(rp.status) && (
        <div className="flex items-center justify-between gap-x-3">
          <Text size="xsmall" className="text-ui-fg-muted">{CANCEL_LIMITS}</Text>
          <Button size="small" variant="danger" className="shrink-0" onClick={onCancel} isLoading={cancel.isPending} data-testid="payneteasy-recurring-cancel">
            Cancel subscription
          </Button>
        </div>
      )}
    </div>
  )
}
