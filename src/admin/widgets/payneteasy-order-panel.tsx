/**
 * Order page widget (zone order.details.after): the PaynetEasy payment of this order in the shop's words — how it was
 * paid, its status, 3-D Secure as far as it can be known for that way of paying, and one activity list that tells
 * what the customer, this dashboard's admins (by e-mail) and a subscription did from what only the gateway reported
 * (chargebacks, changes made in the PaynetEasy back office, with a warning). Gateway ids, serials, status checks,
 * notifications and raw replies sit behind "Technical details". "Check at the gateway now" asks STATUS. The money
 * summary is the side-column widget (payneteasy-order-summary.tsx). Renders nothing for orders not paid through
 * PaynetEasy.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { ArrowPath, ExclamationCircle } from "@medusajs/icons"
import { Alert, Badge, Button, Container, Heading, Table, Text, toast } from "@medusajs/ui"
import { errorText, useCheckOrder, useOrderPanel } from "../lib/hooks"
import type { ActivityEntry, SessionPanel } from "../lib/types"
import { useWords } from "../lib/use-words"
import { Status } from "../components/format"
import { Field } from "../components/field"

function Activity({ rows }: { rows: ActivityEntry[] }) {
  const w = useWords()
  const { t } = w
  return (
    <Table data-testid="payneteasy-activity">
      <Table.Header>
        <Table.Row>
          <Table.HeaderCell>{t("payneteasy.panel.when")}</Table.HeaderCell>
          <Table.HeaderCell>{t("payneteasy.panel.what")}</Table.HeaderCell>
          <Table.HeaderCell>{t("payneteasy.panel.amount")}</Table.HeaderCell>
          <Table.HeaderCell>{t("payneteasy.panel.status")}</Table.HeaderCell>
          <Table.HeaderCell>{t("payneteasy.panel.who")}</Table.HeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {rows.map((a) => (
          <Table.Row key={a.id} data-testid="payneteasy-activity-row" data-kind={a.kind} data-origin={a.origin}>
            <Table.Cell className="whitespace-nowrap">{w.date(a.at)}</Table.Cell>
            <Table.Cell title={a.warning ?? undefined} className={a.warning ? "text-ui-fg-error" : undefined}>
              {a.warning ? <ExclamationCircle className="mr-1 inline" /> : null}
              {w.status("activity", a.kind).label}
              {a.reason_code || a.deadline ? (
                <div className="text-ui-fg-subtle txt-compact-xsmall" data-testid="payneteasy-activity-dispute">
                  {a.reason_code ? t("payneteasy.panel.reasonCode", { code: a.reason_code }) : null}
                  {a.reason_code && a.deadline ? " · " : null}
                  {a.deadline ? t("payneteasy.panel.respondBy", { date: w.date(a.deadline) }) : null}
                </div>
              ) : null}
            </Table.Cell>
            <Table.Cell className="whitespace-nowrap">{w.money(a.amount, a.currency)}</Table.Cell>
            <Table.Cell>
              {a.pending ? (
                <Status group="gateway" value="processing" />
              ) : a.status ? (
                <Status group="gateway" value={a.status} />
              ) : (
                t("payneteasy.panel.awaitingGateway")
              )}
            </Table.Cell>
            <Table.Cell data-testid="payneteasy-activity-who">
              <div className="flex flex-col items-start gap-y-0.5 py-1">
                <Badge size="2xsmall" color={w.status("origin", a.origin).color}>
                  {w.status("origin", a.origin).label}
                </Badge>
                {a.by ? <span className="break-all text-ui-fg-subtle txt-compact-xsmall">{a.by}</span> : null}
              </div>
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table>
  )
}

function TechnicalDetails({ s }: { s: SessionPanel }) {
  const w = useWords()
  const { t } = w
  return (
    <details className="group" data-testid="payneteasy-technical">
      <summary className="cursor-pointer select-none text-ui-fg-subtle txt-compact-small-plus" data-testid="payneteasy-technical-toggle">
        {t("payneteasy.common.technicalDetails")}
      </summary>
      <div className="mt-3 flex flex-col gap-y-4">
        <div className="grid grid-cols-2 gap-4">
          <Field label={t("payneteasy.panel.gatewayOrderId")} value={s.gateway_order_id} testId="payneteasy-gateway-order-id" />
          <Field label={t("payneteasy.panel.clientOrderId")} value={s.client_orderid} testId="payneteasy-client-orderid" />
          <Field label={t("payneteasy.panel.provider")} value={s.provider_id} />
          <Field label={t("payneteasy.panel.type")} value={`${s.flow ?? "?"} / ${s.transaction_type ?? "?"}`} />
        </div>

        <div className="flex flex-col gap-y-2">
          <Heading level="h3">{t("payneteasy.panel.transactions")}</Heading>
          {s.transactions.length === 0 ? (
            <Text size="small" className="text-ui-fg-subtle" data-testid="payneteasy-no-transactions">
              {t("payneteasy.panel.notChecked")}
            </Text>
          ) : (
            <Table data-testid="payneteasy-transactions">
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t("payneteasy.panel.type")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.serial")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.status")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.amount")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.checkedAt")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.reason")}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {s.transactions.map((x) => (
                  <Table.Row key={`${x.serial_number}-${x.checked_at}`}>
                    <Table.Cell className="font-mono">{x.transaction_type ?? "—"}</Table.Cell>
                    <Table.Cell className="font-mono">{x.serial_number ?? "—"}</Table.Cell>
                    <Table.Cell>
                      <Status group="gateway" value={x.status} />
                    </Table.Cell>
                    <Table.Cell>{w.money(x.amount, x.currency)}</Table.Cell>
                    <Table.Cell>
                      {w.date(x.checked_at)}
                      {x.checked_by ? ` ${t("payneteasy.common.by", { who: x.checked_by })}` : ""}
                    </Table.Cell>
                    <Table.Cell>{x.reason ?? "—"}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          )}
        </div>

        <div className="flex flex-col gap-y-2">
          <Heading level="h3">{t("payneteasy.panel.callbacks")}</Heading>
          {s.callbacks.length === 0 ? (
            <Text size="small" className="text-ui-fg-subtle">
              {t("payneteasy.panel.noCallbacks")}
            </Text>
          ) : (
            <Table data-testid="payneteasy-callbacks">
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t("payneteasy.panel.received")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.from")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.type")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.status")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payneteasy.panel.result")}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {s.callbacks.map((c) => (
                  <Table.Row key={c.id}>
                    <Table.Cell className="whitespace-nowrap">{w.date(c.received_at)}</Table.Cell>
                    <Table.Cell>{w.status("callbackSource", c.source).label}</Table.Cell>
                    <Table.Cell className="font-mono">{c.type || "—"}</Table.Cell>
                    <Table.Cell>
                      <Status group="gateway" value={c.status} />
                    </Table.Cell>
                    <Table.Cell>
                      <Status group="callbackOutcome" value={c.outcome} /> <span className="text-ui-fg-subtle">{c.outcome_detail}</span>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          )}
        </div>

        {s.reconciliation.length > 0 && (
          <div className="flex flex-col gap-y-1">
            <Heading level="h3">{t("payneteasy.panel.reconciliation")}</Heading>
            {s.reconciliation.map((r) => (
              <Text size="small" key={r.target || "session"}>
                {r.target ? <span className="font-mono">{r.target}: </span> : null}
                {t("payneteasy.panel.reconciliationRow", { state: w.status("reconciliation", r.state).label, count: r.checks })}
                {r.next_check_at ? `, ${t("payneteasy.panel.nextCheck", { when: w.date(r.next_check_at) })}` : ""}
                {r.note ? ` — ${r.note}` : ""}
              </Text>
            ))}
          </div>
        )}

        {Object.keys(s.three_ds.fields).length > 0 && (
          <div className="flex flex-col gap-y-1">
            <Heading level="h3">{t("payneteasy.panel.threeDsFields")}</Heading>
            <pre className="overflow-x-auto text-xs">{JSON.stringify(s.three_ds.fields, null, 2)}</pre>
          </div>
        )}
      </div>
    </details>
  )
}

function Session({ s }: { s: SessionPanel }) {
  const w = useWords()
  const { t } = w
  return (
    <div className="flex flex-col gap-y-4 px-6 py-4" data-testid="payneteasy-session">
      <div className="grid grid-cols-2 gap-4">
        <Field label={t("payneteasy.panel.howPaid")} value={w.status("paymentKind", s.kind).label} testId="payneteasy-payment-kind" mono={false} />
        <Field label={t("payneteasy.panel.status")} value={<Status group="gateway" value={s.gateway_status} testId="payneteasy-gateway-status" />} mono={false} />
        <Field label={t("payneteasy.panel.amount")} value={w.money(s.amount, s.currency)} mono={false} />
        <Field label={t("payneteasy.panel.threeDs")} value={w.status("threeDs", s.three_ds.state).label} testId="payneteasy-three-ds" mono={false} />
        <Field
          label={t("payneteasy.panel.lastChecked")}
          value={s.last_checked_at ? w.date(s.last_checked_at) : t("payneteasy.panel.neverChecked")}
          testId="payneteasy-last-checked"
          mono={false}
        />
      </div>
      {s.error && <Alert variant="error">{t("payneteasy.panel.gatewaySaid", { message: s.error.message })}</Alert>}
      {s.activity.length > 0 && (
        <div className="flex flex-col gap-y-2">
          <Heading level="h3">{t("payneteasy.panel.activity")}</Heading>
          <Activity rows={s.activity} />
        </div>
      )}
      <TechnicalDetails s={s} />
    </div>
  )
}

const PaynetEasyOrderWidget = ({ data }: DetailWidgetProps<HttpTypes.AdminOrder>) => {
  const panel = useOrderPanel(data.id)
  const check = useCheckOrder(data.id)
  const { t } = useWords()
  if (panel.isLoading) {
    return (
      <Container className="px-6 py-4" data-testid="payneteasy-panel-loading">
        <Text size="small" className="text-ui-fg-subtle">
          {t("payneteasy.panel.loading")}
        </Text>
      </Container>
    )
  }
  if (panel.isError) {
    return (
      <Container className="px-6 py-4">
        <Alert variant="error">{t("payneteasy.panel.loadError", { message: errorText(panel.error) })}</Alert>
      </Container>
    )
  }
  const order = panel.data?.order
  if (!order?.is_payneteasy) return null
  const onCheck = () =>
    check.mutate(undefined, {
      onSuccess: (r) =>
        r.check.errors.length
          ? toast.error(t("payneteasy.panel.checkFailed", { message: r.check.errors.map((e) => e.message).join("; ") }))
          : toast.success(t("payneteasy.panel.checked", { count: r.check.checked })),
      onError: (e) => toast.error(errorText(e)),
    })
  return (
    <Container className="divide-y p-0" data-testid="payneteasy-order-panel">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("payneteasy.panel.title")}</Heading>
        <Button size="small" variant="secondary" onClick={onCheck} isLoading={check.isPending} data-testid="payneteasy-check-now">
          <ArrowPath /> {t("payneteasy.panel.checkNow")}
        </Button>
      </div>
      {order.warnings.length > 0 && (
        <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="payneteasy-warnings">
          {order.warnings.map((warning) => (
            <Alert variant="warning" key={warning}>
              <span className="inline-flex items-center gap-x-2">
                <ExclamationCircle /> {warning}
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
