/**
 * The PaynetEasy page's "Attention" tab, the owner's inbox: items a person must act on, what to do, a link to the
 * order or payout, "Retry" where the gateway allows one ("Retry the charge" of a past-due subscription, after a
 * confirmation naming amount and card: retry-charge-button.tsx), and "Mark handled" with an optional note (who/when/note).
 */
import { useState } from "react"
import { Link } from "react-router-dom"
import { CheckCircle } from "@medusajs/icons"
import { Alert, Badge, Button, Container, Heading, Input, Select, Table, Text, toast } from "@medusajs/ui"
import { errorText, useAttention, useMarkHandled, useRetryAttention } from "../lib/hooks"
import type { AttentionItem } from "../lib/types"
import { RetryChargeButton } from "./retry-charge-button"
import { useWords } from "../lib/use-words"

const PAGE = 20
const NOTE_MAX = 500

/** "Mark handled" with an optional note beside it (up to NOTE_MAX characters): records who, when and the note. */
function MarkHandled({ item }: { item: AttentionItem }) {
  const mark = useMarkHandled()
  const { t } = useWords()
  const [note, setNote] = useState("")
  return (
    <div className="flex items-center gap-x-2" data-testid="payneteasy-handled-form">
      <Input
        size="small"
        className="w-56"
        aria-label={t("payneteasy.attention.note")}
        placeholder={t("payneteasy.attention.note")}
        value={note}
        maxLength={NOTE_MAX}
        onChange={(e) => setNote(e.target.value)}
        data-testid="payneteasy-handled-note"
      />
      <Button
        size="small"
        variant="secondary"
        isLoading={mark.isPending}
        data-testid="payneteasy-mark-handled"
        onClick={() =>
          // toasts on the promise: mutate()'s callbacks are dropped when the item leaves the list first
          mark.mutateAsync({ id: item.id, note: note.trim() || undefined }).then(
            () => toast.success(t("payneteasy.attention.markedHandled")),
            (e) => toast.error(errorText(e))
          )
        }
      >
        {t("payneteasy.attention.markHandled")}
      </Button>
    </div>
  )
}

export function AttentionList() {
  const [handled, setHandled] = useState<"false" | "true" | "all">("false")
  const [offset, setOffset] = useState(0)
  const list = useAttention({ handled, limit: PAGE, offset })
  const retry = useRetryAttention()
  const w = useWords()
  const { t } = w
  const items = list.data?.items ?? []
  const count = list.data?.count ?? 0
  return (
    <Container className="divide-y p-0" data-testid="payneteasy-attention">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">{t("payneteasy.attention.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {t("payneteasy.attention.intro")}
          </Text>
        </div>
        <div className="w-48">
          <Select value={handled} onValueChange={(v) => (setHandled(v as typeof handled), setOffset(0))}>
            <Select.Trigger data-testid="payneteasy-attention-filter">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value="false">{t("payneteasy.attention.open")}</Select.Item>
              <Select.Item value="true">{t("payneteasy.attention.handled")}</Select.Item>
              <Select.Item value="all">{t("payneteasy.attention.all")}</Select.Item>
            </Select.Content>
          </Select>
        </div>
      </div>
      {list.isLoading && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          {t("payneteasy.common.loading")}
        </Text>
      )}
      {list.isError && (
        <div className="px-6 py-4">
          <Alert variant="error">{t("payneteasy.attention.loadError", { message: errorText(list.error) })}</Alert>
        </div>
      )}
      {!list.isLoading && !list.isError && items.length === 0 && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="payneteasy-attention-empty">
          {handled === "true" ? t("payneteasy.attention.emptyHandled") : t("payneteasy.attention.empty")}
        </Text>
      )}
      {items.map((item) => (
        <div key={item.id} className="flex flex-col gap-y-2 px-6 py-4" data-testid="payneteasy-attention-item" data-item-id={item.id}>
          <div className="flex items-center justify-between gap-x-4">
            <div className="flex items-center gap-x-2">
              <Badge color={w.status("attentionKind", item.kind).color} size="2xsmall" data-testid="payneteasy-attention-kind">
                {w.status("attentionKind", item.kind).label}
              </Badge>
              <Text size="small" weight="plus">
                {item.title}
              </Text>
            </div>
            {item.handled ? (
              <Text size="small" className="text-ui-fg-subtle" data-testid="payneteasy-attention-handled">
                <CheckCircle className="inline" /> {t("payneteasy.attention.handledBy", { who: item.handled.by_email ?? item.handled.by, when: w.date(item.handled.at) })}
                {item.handled.note ? `: ${item.handled.note}` : ""}
              </Text>
            ) : (
              <div className="flex items-center gap-x-2">
                {item.retry_charge && <RetryChargeButton target={item.retry_charge} testId="payneteasy-attention-retry-charge" />}
                {item.retry && (
                  <Button
                    size="small"
                    variant="secondary"
                    isLoading={retry.isPending && retry.variables?.id === item.id}
                    data-testid="payneteasy-attention-retry"
                    onClick={() =>
                      retry.mutateAsync(item).then(
                        () => toast.success(t("payneteasy.attention.retried")),
                        (e) => toast.error(errorText(e))
                      )
                    }
                  >
                    {t("payneteasy.attention.retry")}
                  </Button>
                )}
                <MarkHandled item={item} />
              </div>
            )}
          </div>
          <Text size="small">
            <span className="text-ui-fg-subtle">{t("payneteasy.attention.whatToDo")} </span>
            {item.what_to_do}
          </Text>
          {item.deadline || item.reason_code ? (
            <Text size="small" weight="plus" data-testid="payneteasy-attention-deadline">
              {item.deadline ? t("payneteasy.attention.actBy", { date: w.date(item.deadline) }) : null}
              {item.deadline && item.reason_code ? " · " : null}
              {item.reason_code ? t("payneteasy.panel.reasonCode", { code: item.reason_code }) : null}
            </Text>
          ) : null}
          <Text size="xsmall" className="text-ui-fg-subtle">
            {w.date(item.occurred_at)}
            {item.orderid ? ` · ${t("payneteasy.attention.gatewayOrder", { id: item.orderid })}` : ""}
            {item.client_orderid ? ` · ${t("payneteasy.attention.clientOrderId", { id: item.client_orderid })}` : ""}
            {item.amount ? ` · ${w.money(item.amount, item.currency)}` : ""}
            {item.detail ? ` · ${item.detail}` : ""}
          </Text>
          {(item.order_id || item.payout_id) && (
            <Text size="xsmall">
              {item.order_id && (
                <Link to={`/orders/${item.order_id}`} className="text-ui-fg-interactive" data-testid="payneteasy-attention-order">
                  {t("payneteasy.attention.openOrder")}
                </Link>
              )}
              {item.payout_id && (
                <Link to={`/payouts/${item.payout_id}`} className="text-ui-fg-interactive" data-testid="payneteasy-attention-payout">
                  {t("payneteasy.attention.openPayout")}
                </Link>
              )}
            </Text>
          )}
        </div>
      ))}
      {count > PAGE && (
        <Table.Pagination
          translations={w.pagination}
          count={count}
          pageSize={PAGE}
          pageIndex={offset / PAGE}
          pageCount={Math.ceil(count / PAGE)}
          canPreviousPage={offset > 0}
          canNextPage={offset + PAGE < count}
          previousPage={() => setOffset(Math.max(0, offset - PAGE))}
          nextPage={() => setOffset(offset + PAGE)}
        />
      )}
    </Container>
  )
}
