/**
 * Payout detail: amounts, destination summary, gateway ids, the hosted form's address with a copy button, the
 * confirm action for a checked two-step payout (one Idempotency-Key per view, so a double click is one request), and
 * the append-only history with each gateway answer.
 */
import { Button, Container, Copy, Heading, StatusBadge, Table, Text, Toaster, toast } from "@medusajs/ui"
import { useMemo } from "react"
import { useParams } from "react-router-dom"
import { newIdempotencyKey, STATUS_COLOR, useConfirmPayout, usePayout } from "../../../lib/payouts"

const PayoutDetailPage = () => {
  const { id = "" } = useParams()
  const { data, isLoading, error } = usePayout(id)
  const confirm = useConfirmPayout(id)
  const confirmKey = useMemo(() => newIdempotencyKey(), [id])
  if (isLoading) return <Container><Text>Loading…</Text></Container>
  if (error || !data) return <Container><Text className="text-ui-fg-error">{(error as Error)?.message ?? "not found"}</Text></Container>
  const p = data.payout
  const row = (label: string, value: React.ReactNode) => (
    <div className="grid grid-cols-2 px-6 py-3"><Text size="small" className="text-ui-fg-subtle">{label}</Text><Text size="small">{value ?? "—"}</Text></div>
  )
  const doConfirm = async () => {
    try {
      const { payout } = await confirm.mutateAsync(confirmKey)
      toast.success(`Payout ${payout.id}: ${payout.status}`)
    } catch (e: any) {
      toast.error(e?.message ?? String(e))
    }
  }
  return (
    <div className="flex flex-col gap-y-3">
      <Toaster />
      <Container className="divide-y p-0">
        <div className="flex items-center justify-between px-6 py-4">
          <Heading level="h1">Payout {p.amount} {p.currency_code}</Heading>
          <div className="flex items-center gap-x-2">
            <StatusBadge color={STATUS_COLOR[p.status]} data-testid="payout-status">{p.status}</StatusBadge>
            {p.can_confirm ? (
              <Button size="small" onClick={doConfirm} isLoading={confirm.isPending} data-testid="payout-confirm">Confirm payout</Button>
            ) : null}
          </div>
        </div>
        {row("Method", p.method)}
        {row("Destination", p.destination ? `${p.destination.type}: ${p.destination.summary}` : "entered by the recipient on the hosted form")}
        {row("Recipient", p.recipient)}
        {row("Purpose", p.purpose)}
        {row("client_orderid", p.client_orderid)}
        {row("Gateway order id", p.gateway_order_id)}
        {row("Check serial", p.check_serial)}
        {row("Pay serial", p.pay_serial)}
        {row("Gateway reason", p.error_message ? `${p.error_code ?? ""} ${p.error_message}` : null)}
        {row("Created by", `${p.created_by ?? "—"} at ${new Date(p.created_at).toLocaleString()}`)}
        {row("Confirmed by", p.confirmed_by ? `${p.confirmed_by} at ${new Date(p.confirmed_at as string).toLocaleString()}` : null)}
        {p.form_url ? (
          <div className="grid grid-cols-2 px-6 py-3">
            <Text size="small" className="text-ui-fg-subtle">Hosted form address (send it to the recipient)</Text>
            <div className="flex items-center gap-x-2"><Text size="small" className="truncate" data-testid="payout-form-url">{p.form_url}</Text><Copy content={p.form_url} /></div>
          </div>
        ) : null}
      </Container>
      <Container className="divide-y p-0">
        <div className="px-6 py-4"><Heading level="h2">History</Heading></div>
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Time</Table.HeaderCell>
              <Table.HeaderCell>Actor</Table.HeaderCell>
              <Table.HeaderCell>Event</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell>Gateway answer</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {p.history.map((h) => (
              <Table.Row key={h.id} data-testid="payout-history-row">
                <Table.Cell>{new Date(h.at).toLocaleString()}</Table.Cell>
                <Table.Cell>{h.actor}</Table.Cell>
                <Table.Cell>{h.event}{h.note ? ` — ${h.note}` : ""}</Table.Cell>
                <Table.Cell>{h.from_status ? `${h.from_status} → ` : ""}{h.to_status}</Table.Cell>
                <Table.Cell><code className="text-xs">{h.gateway ? JSON.stringify(h.gateway) : ""}</code></Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </Container>
    </div>
  )
}

export default PayoutDetailPage
