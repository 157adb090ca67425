/** The PaynetEasy page's "Callback log" tab: filter by status, outcome, order and date; paginated; params scrubbed. */
import { Fragment, useState } from "react"
import { Alert, Button, Container, Heading, Input, Select, Table, Text } from "@medusajs/ui"
import { errorText, useCallbacks, type CallbackFilters } from "../lib/hooks"
import { useWords } from "../lib/use-words"
import { Status } from "./format"

const PAGE = 20
const ANY = "any"

export function CallbackLog() {
  const [filters, setFilters] = useState<CallbackFilters>({ limit: PAGE, offset: 0 })
  const [open, setOpen] = useState<string | null>(null)
  const list = useCallbacks(filters)
  const w = useWords()
  const { t } = w
  const set = (patch: Partial<CallbackFilters>) => setFilters((f) => ({ ...f, ...patch, offset: 0 }))
  const rows = list.data?.callbacks ?? []
  const count = list.data?.count ?? 0
  return (
    <Container className="divide-y p-0" data-testid="payneteasy-callback-log">
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <Heading level="h2">{t("payneteasy.callbacks.title")}</Heading>
        <div className="grid grid-cols-2 gap-2 md:grid-cols-5">
          <Select value={filters.status ?? ANY} onValueChange={(v) => set({ status: v === ANY ? undefined : v })}>
            <Select.Trigger>
              <Select.Value placeholder={t("payneteasy.callbacks.status")} />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value={ANY}>{t("payneteasy.callbacks.anyStatus")}</Select.Item>
              {["approved", "declined", "processing", "error", "filtered", "unknown"].map((s) => (
                <Select.Item key={s} value={s}>
                  {w.status("gateway", s).label}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
          <Select value={filters.outcome ?? ANY} onValueChange={(v) => set({ outcome: v === ANY ? undefined : v })}>
            <Select.Trigger>
              <Select.Value placeholder={t("payneteasy.callbacks.outcome")} />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value={ANY}>{t("payneteasy.callbacks.anyOutcome")}</Select.Item>
              {["received", "processed", "ignored", "failed", "flagged"].map((s) => (
                <Select.Item key={s} value={s}>
                  {w.status("callbackOutcome", s).label}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
          <Input placeholder={t("payneteasy.callbacks.orderId")} size="small" onChange={(e) => set({ order_id: e.target.value.trim() || undefined })} />
          <Input type="date" size="small" aria-label={t("payneteasy.callbacks.receivedFrom")} onChange={(e) => set({ received_from: e.target.value || undefined })} />
          <Input
            type="date"
            size="small"
            aria-label={t("payneteasy.callbacks.receivedUntil")}
            onChange={(e) => set({ received_to: e.target.value ? `${e.target.value}T23:59:59.999Z` : undefined })}
          />
        </div>
      </div>
      {list.isLoading && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          {t("payneteasy.common.loading")}
        </Text>
      )}
      {list.isError && (
        <div className="px-6 py-4">
          <Alert variant="error">{t("payneteasy.callbacks.loadError", { message: errorText(list.error) })}</Alert>
        </div>
      )}
      {!list.isLoading && !list.isError && rows.length === 0 && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="payneteasy-callback-log-empty">
          {t("payneteasy.callbacks.none")}
        </Text>
      )}
      {rows.length > 0 && (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("payneteasy.callbacks.received")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.callbacks.from")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.callbacks.gatewayOrder")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.callbacks.type")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.callbacks.status")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.callbacks.amount")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.callbacks.outcome")}</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((c) => (
              <Fragment key={c.id}>
                <Table.Row data-testid="payneteasy-callback-row">
                  <Table.Cell>{w.date(c.received_at)}</Table.Cell>
                  <Table.Cell>{w.status("callbackSource", c.source).label}</Table.Cell>
                  <Table.Cell className="font-mono">{c.orderid}</Table.Cell>
                  <Table.Cell>{c.type || "—"}</Table.Cell>
                  <Table.Cell>
                    <Status group="gateway" value={c.status} />
                  </Table.Cell>
                  <Table.Cell>{w.money(c.amount, c.currency)}</Table.Cell>
                  <Table.Cell title={c.outcome_detail ?? undefined}>
                    <Status group="callbackOutcome" value={c.outcome} />
                  </Table.Cell>
                  <Table.Cell>
                    <Button size="small" variant="transparent" onClick={() => setOpen(open === c.id ? null : c.id)}>
                      {open === c.id ? t("payneteasy.callbacks.hide") : t("payneteasy.callbacks.parameters")}
                    </Button>
                  </Table.Cell>
                </Table.Row>
                {open === c.id && (
                  <Table.Row>
                    <td colSpan={8} className="px-6 py-2">
                      <Text size="xsmall" className="text-ui-fg-subtle">
                        {c.outcome_detail}
                      </Text>
                      <pre className="text-ui-fg-subtle whitespace-pre-wrap text-xs" data-testid="payneteasy-callback-params">
                        {JSON.stringify(c.params, null, 2)}
                      </pre>
                    </td>
                  </Table.Row>
                )}
              </Fragment>
            ))}
          </Table.Body>
        </Table>
      )}
      {count > 0 && (
        <Table.Pagination
          translations={w.pagination}
          count={count}
          pageSize={PAGE}
          pageIndex={filters.offset / PAGE}
          pageCount={Math.max(1, Math.ceil(count / PAGE))}
          canPreviousPage={filters.offset > 0}
          canNextPage={filters.offset + PAGE < count}
          previousPage={() => setFilters((f) => ({ ...f, offset: Math.max(0, f.offset - PAGE) }))}
          nextPage={() => setFilters((f) => ({ ...f, offset: f.offset + PAGE }))}
        />
      )}
    </Container>
  )
}
