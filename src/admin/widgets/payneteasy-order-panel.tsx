/**
 * Order page widget (zone order.details.after): what the PaynetEasy gateway knows about this order's payment —
 * gateway order id and client_orderid, the transactions STATUS reported, callbacks and shopper returns with what
 * the plugin did, 3-D Secure, reconciliation, later events (chargebacks, changes made outside Medusa) with a
 * warning, and "Check at the gateway now". Renders nothing for orders not paid through PaynetEasy.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { ArrowPath, ExclamationCircle } from "@medusajs/icons"
import { Alert, Badge, Button, Container, Heading, Table, Text, toast } from "@medusajs/ui"
import { errorText, useCheckOrder, useOrderPanel } from "../lib/hooks"
import type { SessionPanel } from "../lib/types"
import { Status, when } from "../components/format"
import { Field } from "../components/field"

function Session({ s }: { s: SessionPanel }) {
  return (
    <div className="flex flex-col gap-y-4 px-6 py-4" data-testid="payneteasy-session">
      <div className="grid grid-cols-2 gap-4">
        <Field label="Gateway order id" value={s.gateway_order_id} testId="payneteasy-gateway-order-id" />
        <Field label="client_orderid" value={s.client_orderid} testId="payneteasy-client-orderid" />
        <Field label="Amount" value={s.amount ? `${s.amount} ${s.currency ?? ""}` : null} />
        <Field label="Gateway status" value={<Status value={s.gateway_status} />} />
        <Field label="Flow / type" value={`${s.flow ?? "?"} / ${s.transaction_type ?? "?"}`} />
        <Field label="Provider" value={s.provider_id} />
        <Field label="3-D Secure" value={s.three_ds.summary} />
        <Field label="Last checked at the gateway" value={when(s.last_checked_at)} testId="payneteasy-last-checked" />
      </div>
      {s.error && <Alert variant="error">Gateway said: {s.error.message}</Alert>}

      <div className="flex flex-col gap-y-2">
        <Heading level="h3">Transactions (STATUS)</Heading>
        {s.transactions.length === 0 ? (
          <Text size="small" className="text-ui-fg-subtle" data-testid="payneteasy-no-transactions">
            Not checked at the gateway yet — press “Check at the gateway now”.
          </Text>
        ) : (
          <Table data-testid="payneteasy-transactions">
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>Type</Table.HeaderCell>
                <Table.HeaderCell>Status</Table.HeaderCell>
                <Table.HeaderCell>Amount</Table.HeaderCell>
                <Table.HeaderCell>Checked</Table.HeaderCell>
                <Table.HeaderCell>Reason</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {s.transactions.map((t) => (
                <Table.Row key={`${t.serial_number}-${t.checked_at}`}>
                  <Table.Cell>{t.transaction_type ?? "—"}</Table.Cell>
                  <Table.Cell>
                    <Status value={t.status} />
                  </Table.Cell>
                  <Table.Cell>{t.amount ? `${t.amount} ${t.currency ?? ""}` : "—"}</Table.Cell>
                  <Table.Cell>
                    {when(t.checked_at)}
                    {t.checked_by ? ` by ${t.checked_by}` : ""}
                  </Table.Cell>
                  <Table.Cell>{t.reason ?? "—"}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        )}
      </div>

      <div className="flex flex-col gap-y-2">
        <Heading level="h3">Callbacks and shopper returns</Heading>
        {s.callbacks.length === 0 ? (
          <Text size="small" className="text-ui-fg-subtle">
            No callback or return received yet.
          </Text>
        ) : (
          <Table data-testid="payneteasy-callbacks">
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>Received</Table.HeaderCell>
                <Table.HeaderCell>From</Table.HeaderCell>
                <Table.HeaderCell>Type</Table.HeaderCell>
                <Table.HeaderCell>Status</Table.HeaderCell>
                <Table.HeaderCell>What the plugin did</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {s.callbacks.map((c) => (
                <Table.Row key={c.id}>
                  <Table.Cell>{when(c.received_at)}</Table.Cell>
                  <Table.Cell>{c.source}</Table.Cell>
                  <Table.Cell>{c.type || "—"}</Table.Cell>
                  <Table.Cell>
                    <Status value={c.status} />
                  </Table.Cell>
                  <Table.Cell>
                    <Status value={c.outcome} /> <span className="text-ui-fg-subtle">{c.outcome_detail}</span>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        )}
      </div>

      {s.reconciliation.length > 0 && (
        <div className="flex flex-col gap-y-1">
          <Heading level="h3">Reconciliation</Heading>
          {s.reconciliation.map((r) => (
            <Text size="small" key={r.target || "session"}>
              {r.target || "payment"}: <Status value={r.state} /> after {r.checks} check(s), last status {r.last_status ?? "—"}
              {r.next_check_at ? `, next check ${when(r.next_check_at)}` : ""} {r.note ? `— ${r.note}` : ""}
            </Text>
          ))}
        </div>
      )}

      {s.later_events.length > 0 && (
        <div className="flex flex-col gap-y-2">
          <Heading level="h3">Later events</Heading>
          {s.later_events.map((e) => (
            <Text size="small" key={e.callback_id}>
              {when(e.received_at)} — {e.type} <Status value={e.status} /> {e.amount ? `${e.amount} ${e.currency ?? ""}` : ""}{" "}
              {e.confirmed ? <Badge size="2xsmall">confirmed by STATUS</Badge> : <Badge size="2xsmall">reported by callback</Badge>}
            </Text>
          ))}
        </div>
      )}
    </div>
  )
}

const PaynetEasyOrderWidget = ({ data }: DetailWidgetProps<HttpTypes.AdminOrder>) => {
  const panel = useOrderPanel(data.id)
  const check = useCheckOrder(data.id)
  if (panel.isLoading) {
    return (
      <Container className="px-6 py-4" data-testid="payneteasy-panel-loading">
        <Text size="small" className="text-ui-fg-subtle">
          Loading PaynetEasy payment…
        </Text>
      </Container>
    )
  }
  if (panel.isError) {
    return (
      <Container className="px-6 py-4">
        <Alert variant="error">PaynetEasy payment could not be loaded: {errorText(panel.error)}</Alert>
      </Container>
    )
  }
  const order = panel.data?.order
  if (!order?.is_payneteasy) return null
  const onCheck = () =>
    check.mutate(undefined, {
      onSuccess: (r) =>
        r.check.errors.length
          ? toast.error(`The gateway could not be asked: ${r.check.errors.map((e) => e.message).join("; ")}`)
          : toast.success(`Checked ${r.check.checked} transaction(s) at the gateway`),
      onError: (e) => toast.error(errorText(e)),
    })
  return (
    <Container className="divide-y p-0" data-testid="payneteasy-order-panel">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">PaynetEasy</Heading>
        <Button size="small" variant="secondary" onClick={onCheck} isLoading={check.isPending} data-testid="payneteasy-check-now">
          <ArrowPath /> Check at the gateway now
        </Button>
      </div>
      {order.warnings.length > 0 && (
        <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="payneteasy-warnings">
          {order.warnings.map((w) => (
            <Alert variant="warning" key={w}>
              <span className="inline-flex items-center gap-x-2">
                <ExclamationCircle /> {w}
              </span>
            </Alert>
          ))}
        </div>
      )}
      {order.sessions.map((s) => (
        <Session key={s.session_id} s={s} />
      ))}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.after" })

export default PaynetEasyOrderWidget
