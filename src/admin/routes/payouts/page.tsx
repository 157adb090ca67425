/**
 * Dashboard page "Payouts" (sidebar): the plugin's payouts with status, amount, destination, method and dates, a
 * status filter, pagination, and the create form. Rows open the detail page (history, confirm, form address).
 * Statuses, money and dates in the admin's language through the one label table and formatters.
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CashSolid } from "@medusajs/icons"
import { Container, Heading, Select, Table, Text, Toaster } from "@medusajs/ui"
import { useState } from "react"
import { useNavigate } from "react-router-dom"
import { destinationWords, usePayouts } from "../../lib/payouts"
import { STATUS_COLORS } from "../../lib/labels"
import { useWords } from "../../lib/use-words"
import { Status } from "../../components/format"
import { CreatePayoutForm } from "./create-payout-form"

const PAGE = 20
const STATUSES = Object.keys(STATUS_COLORS.payout)

const PayoutsPage = () => {
  const [status, setStatus] = useState<string>("all")
  const [page, setPage] = useState(0)
  const navigate = useNavigate()
  const w = useWords()
  const { t } = w
  const { data, isLoading, error } = usePayouts({ status: status === "all" ? undefined : status, limit: PAGE, offset: page * PAGE })
  const count = data?.count ?? 0
  const destWords = { kind: (k: string) => w.status("destination", k).label, card: t("payneteasy.common.cardUnknownBrand"), recipientEnters: t("payneteasy.payouts.enteredByRecipient") }
  return (
    <Container className="divide-y p-0">
      <Toaster />
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h1">{t("payneteasy.payouts.title")}</Heading>
        <div className="flex items-center gap-x-2">
          <Select value={status} onValueChange={(v) => { setStatus(v); setPage(0) }}>
            <Select.Trigger className="w-56" data-testid="payout-status-filter"><Select.Value /></Select.Trigger>
            <Select.Content>
              <Select.Item value="all">{t("payneteasy.payouts.allStatuses")}</Select.Item>
              {STATUSES.map((s) => <Select.Item key={s} value={s}>{w.status("payout", s).label}</Select.Item>)}
            </Select.Content>
          </Select>
          <CreatePayoutForm onCreated={(p) => navigate(`/payouts/${p.id}`)} />
        </div>
      </div>
      {error ? <Text className="px-6 py-4 text-ui-fg-error">{(error as Error).message}</Text> : null}
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t("payneteasy.payouts.status")}</Table.HeaderCell>
            <Table.HeaderCell>{t("payneteasy.payouts.amount")}</Table.HeaderCell>
            <Table.HeaderCell>{t("payneteasy.payouts.destination")}</Table.HeaderCell>
            <Table.HeaderCell>{t("payneteasy.payouts.method")}</Table.HeaderCell>
            <Table.HeaderCell>{t("payneteasy.payouts.created")}</Table.HeaderCell>
            <Table.HeaderCell>{t("payneteasy.payouts.finished")}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(data?.payouts ?? []).map((p) => (
            <Table.Row key={p.id} className="cursor-pointer" onClick={() => navigate(`/payouts/${p.id}`)} data-testid={`payout-row-${p.id}`}>
              <Table.Cell><Status group="payout" value={p.status} /></Table.Cell>
              <Table.Cell>{w.money(p.amount, p.currency_code)}</Table.Cell>
              <Table.Cell>{destinationWords(p.destination, destWords)}</Table.Cell>
              <Table.Cell>{w.status("payoutMethod", p.method).label}</Table.Cell>
              <Table.Cell>{w.date(p.created_at)}</Table.Cell>
              <Table.Cell>{p.finished_at ? w.date(p.finished_at) : "—"}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      {!isLoading && count === 0 ? <Text className="px-6 py-4 text-ui-fg-subtle">{t("payneteasy.payouts.none")}</Text> : null}
      <Table.Pagination
        translations={w.pagination}
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

export const config = defineRouteConfig({ label: "payneteasy.nav.payouts", translationNs: "translation", icon: CashSolid })

export default PayoutsPage
