/**
 * Dashboard page "Payouts" (sidebar): the plugin's payouts with status, amount, destination summary, method and
 * dates, a status filter, pagination, and the create form. Rows open the detail page (history, confirm, form address).
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CashSolid } from "@medusajs/icons"
import { Container, Heading, Select, StatusBadge, Table, Text, Toaster } from "@medusajs/ui"
import { useState } from "react"
import { useNavigate } from "react-router-dom"
import { STATUS_COLOR, usePayouts, type PayoutStatus } from "../../lib/payouts"
import { CreatePayoutForm } from "./create-payout-form"

const PAGE = 20
const STATUSES: PayoutStatus[] = ["pending", "form_issued", "checking", "checked", "check_declined", "processing", "approved", "declined", "error", "filtered", "failed"]
const METHOD_LABEL = { single: "Single-step", two_step: "Two-step", form: "Hosted form" } as const

const PayoutsPage = () => {
  const [status, setStatus] = useState<string>("all")
  const [page, setPage] = useState(0)
  const navigate = useNavigate()
  const { data, isLoading, error } = usePayouts({ status: status === "all" ? undefined : status, limit: PAGE, offset: page * PAGE })
  const count = data?.count ?? 0
  return (
    <Container className="divide-y p-0">
      <Toaster />
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h1">Payouts</Heading>
        <div className="flex items-center gap-x-2">
          <Select value={status} onValueChange={(v) => { setStatus(v); setPage(0) }}>
            <Select.Trigger className="w-44" data-testid="payout-status-filter"><Select.Value /></Select.Trigger>
            <Select.Content>
              <Select.Item value="all">All statuses</Select.Item>
              {STATUSES.map((s) => <Select.Item key={s} value={s}>{s}</Select.Item>)}
            </Select.Content>
          </Select>
          <CreatePayoutForm onCreated={(p) => navigate(`/payouts/${p.id}`)} />
        </div>
      </div>
      {error ? <Text className="px-6 py-4 text-ui-fg-error">{(error as Error).message}</Text> : null}
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Status</Table.HeaderCell>
            <Table.HeaderCell>Amount</Table.HeaderCell>
            <Table.HeaderCell>Destination</Table.HeaderCell>
            <Table.HeaderCell>Method</Table.HeaderCell>
            <Table.HeaderCell>Created</Table.HeaderCell>
            <Table.HeaderCell>Finished</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(data?.payouts ?? []).map((p) => (
            <Table.Row key={p.id} className="cursor-pointer" onClick={() => navigate(`/payouts/${p.id}`)} data-testid={`payout-row-${p.id}`}>
              <Table.Cell><StatusBadge color={STATUS_COLOR[p.status]}>{p.status}</StatusBadge></Table.Cell>
              <Table.Cell>{p.amount} {p.currency_code}</Table.Cell>
              <Table.Cell>{p.destination?.summary ?? (p.method === "form" ? "entered by the recipient" : "—")}</Table.Cell>
              <Table.Cell>{METHOD_LABEL[p.method]}</Table.Cell>
              <Table.Cell>{new Date(p.created_at).toLocaleString()}</Table.Cell>
              <Table.Cell>{p.finished_at ? new Date(p.finished_at).toLocaleString() : "—"}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      {!isLoading && count === 0 ? <Text className="px-6 py-4 text-ui-fg-subtle">No payouts yet.</Text> : null}
      <Table.Pagination
        count={count}
        pageSize={PAGE}
        pageIndex={page}
        pageCount={Math.max(1, Math.ceil(count / PAGE))}
        canPreviousPage={page > 0}
        canNextPage={(page + 1) * PAGE < count}
        previousPage={() => setPage((p) => Math.max(0, p - 1))}
        nextPage={() => setPage((p) => p + 1)}
      />
    </Container>
  )
}

export const config = defineRouteConfig({ label: "Payouts", icon: CashSolid })

export default PayoutsPage
