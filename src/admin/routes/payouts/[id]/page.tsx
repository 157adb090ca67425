/**
 * Payout detail: amount, destination, who created and confirmed it (by e-mail), the hosted form's address with a copy
 * button, the confirm action for a checked two-step payout — asked first in a dialog naming amount, currency and
 * destination, since it sends money (one Idempotency-Key per view, so a double click is one request) — and the
 * append-only history with each gateway answer behind "Technical details".
 */
import { Button, Container, Copy, Heading, Table, Text, Toaster, toast, usePrompt } from "@medusajs/ui"
import { useMemo } from "react"
import { useParams } from "react-router-dom"
import { destinationWords, newIdempotencyKey, useConfirmPayout, usePayout } from "../../../lib/payouts"
import { useWords } from "../../../lib/use-words"
import { Status } from "../../../components/format"

const PayoutDetailPage = () => {
  const { id = "" } = useParams()
  const { data, isLoading, error } = usePayout(id)
  const confirm = useConfirmPayout(id)
  const confirmKey = useMemo(() => newIdempotencyKey(), [id])
  const prompt = usePrompt()
  const w = useWords()
  const { t } = w
  if (isLoading) return <Container><Text>{t("payneteasy.common.loading")}</Text></Container>
  if (error || !data) return <Container><Text className="text-ui-fg-error">{(error as Error)?.message ?? "not found"}</Text></Container>
  const p = data.payout
  const person = (actor: string | null) => (actor ? p.people?.[actor] ?? actor.replace(/^user:.*/, "—") : "—")
  const amount = w.money(p.amount, p.currency_code)
  const destination = destinationWords(p.destination, {
    kind: (k) => w.status("destination", k).label,
    card: t("payneteasy.common.cardUnknownBrand"),
    recipientEnters: t("payneteasy.payouts.enteredByRecipient"),
  })
  const row = (label: string, value: React.ReactNode, testId?: string) => (
    <div className="grid grid-cols-2 px-6 py-3"><Text size="small" className="text-ui-fg-subtle">{label}</Text><Text size="small" data-testid={testId}>{value ?? "—"}</Text></div>
  )
  const doConfirm = async () => {
    const ok = await prompt({
      title: t("payneteasy.confirm.title"),
      description: t("payneteasy.confirm.payoutConfirm", { amount, destination }),
      confirmText: t("payneteasy.confirm.send", { amount }),
      cancelText: t("payneteasy.confirm.cancel"),
    })
    if (!ok) return
    try {
      const { payout } = await confirm.mutateAsync(confirmKey)
      toast.success(t("payneteasy.payouts.sentToast", { amount, status: w.status("payout", payout.status).label }))
    } catch (e: any) {
      toast.error(e?.message ?? String(e))
    }
  }
  return (
    <div className="flex flex-col gap-y-3">
      <Toaster />
      <Container className="divide-y p-0">
        <div className="flex items-center justify-between px-6 py-4">
          <Heading level="h1">{t("payneteasy.payouts.title")}: {amount}</Heading>
          <div className="flex items-center gap-x-2">
            <Status group="payout" value={p.status} testId="payout-status" />
            {p.can_confirm ? (
              <Button size="small" onClick={doConfirm} isLoading={confirm.isPending} data-testid="payout-confirm">{t("payneteasy.payouts.confirm")}</Button>
            ) : null}
          </div>
        </div>
        {row(t("payneteasy.payouts.method"), w.status("payoutMethod", p.method).label)}
        {row(t("payneteasy.payouts.destination"), destination, "payout-destination")}
        {row(t("payneteasy.payouts.recipient"), p.recipient)}
        {row(t("payneteasy.payouts.purpose"), p.purpose)}
        {row(t("payneteasy.payouts.gatewayReason"), p.error_message ? p.error_message : null)}
        {row(t("payneteasy.payouts.createdBy"), t("payneteasy.payouts.whoAt", { who: person(p.created_by), when: w.date(p.created_at) }), "payout-created-by")}
        {row(t("payneteasy.payouts.confirmedBy"), p.confirmed_by ? t("payneteasy.payouts.whoAt", { who: person(p.confirmed_by), when: w.date(p.confirmed_at) }) : null, "payout-confirmed-by")}
        {p.form_url ? (
          <div className="grid grid-cols-2 px-6 py-3">
            <Text size="small" className="text-ui-fg-subtle">{t("payneteasy.payouts.formUrl")}</Text>
            <div className="flex items-center gap-x-2"><Text size="small" className="truncate" data-testid="payout-form-url">{p.form_url}</Text><Copy content={p.form_url} /></div>
          </div>
        ) : null}
        <details className="px-6 py-3" data-testid="payneteasy-technical">
          <summary className="cursor-pointer select-none text-ui-fg-subtle txt-compact-small-plus">{t("payneteasy.common.technicalDetails")}</summary>
          <div className="mt-2 grid grid-cols-2 gap-2 font-mono text-xs">
            <span>{t("payneteasy.payouts.technical.clientOrderId")}</span><span>{p.client_orderid}</span>
            <span>{t("payneteasy.payouts.technical.gatewayOrderId")}</span><span>{p.gateway_order_id ?? "—"}</span>
            <span>{t("payneteasy.payouts.technical.checkSerial")}</span><span>{p.check_serial ?? "—"}</span>
            <span>{t("payneteasy.payouts.technical.paySerial")}</span><span>{p.pay_serial ?? "—"}</span>
            <span>{t("payneteasy.payouts.technical.error")}</span><span>{p.error_code ?? "—"}</span>
            <span>{t("payneteasy.payouts.technical.id")}</span><span>{p.id}</span>
          </div>
        </details>
      </Container>
      <Container className="divide-y p-0">
        <div className="px-6 py-4"><Heading level="h2">{t("payneteasy.payouts.history")}</Heading></div>
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("payneteasy.payouts.time")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.payouts.actor")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.payouts.event")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.payouts.status")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.payouts.gatewayAnswer")}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {p.history.map((h) => (
              <Table.Row key={h.id} data-testid="payout-history-row">
                <Table.Cell className="whitespace-nowrap">{w.date(h.at)}</Table.Cell>
                <Table.Cell>{person(h.actor)}</Table.Cell>
                <Table.Cell>{h.event}{h.note ? ` — ${h.note}` : ""}</Table.Cell>
                <Table.Cell><Status group="payout" value={h.to_status} /></Table.Cell>
                <Table.Cell>
                  {h.gateway ? (
                    <details>
                      <summary className="cursor-pointer text-ui-fg-subtle">{t("payneteasy.common.technicalDetails")}</summary>
                      <code className="text-xs">{JSON.stringify(h.gateway)}</code>
                    </details>
                  ) : null}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </Container>
    </div>
  )
}

export default PayoutDetailPage
