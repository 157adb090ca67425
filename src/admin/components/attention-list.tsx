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
import { when } from "./format"
import { RetryChargeButton } from "./retry-charge-button"

const PAGE = 20
const KIND_LABEL: Record<string, string> = {
  paid_without_order: "Paid, no order",
  chargeback: "Chargeback",
  reconciliation_gave_up: "Reconciliation gave up",
  reply_mismatch: "Reply about another payment",
  callback_failed: "Callback failed",
  recurring_not_stopped: "Subscription not stopped",
  renewal_declined: "Past due",
  subscription_not_set_up: "Subscription not set up",
  renewal_not_reported: "Renewal not reported",
  payment_unresolved: "Payment unresolved",
  payout_awaiting_confirmation: "Payout to confirm",
}
const RED = new Set(["callback_failed", "renewal_declined", "chargeback"])
const NOTE_MAX = 500

/** "Mark handled" with an optional note beside it (up to NOTE_MAX characters): records who, when and the note. */
function MarkHandled({ item }: { item: AttentionItem }) {
  const mark = useMarkHandled()
  const [note, setNote] = useState("")
  return (
    <div className="flex items-center gap-x-2" data-testid="payneteasy-handled-form">
      <Input
        size="small"
        className="w-56"
        aria-label="Note (optional)"
        placeholder="Note (optional)"
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
          mark.mutate(
            { id: item.id, note: note.trim() || undefined },
            { onSuccess: () => toast.success("Marked handled"), onError: (e) => toast.error(errorText(e)) }
          )
        }
      >
        Mark handled
      </Button>
    </div>
  )
}

export function AttentionList() {
  const [handled, setHandled] = useState<"false" | "true" | "all">("false")
  const [offset, setOffset] = useState(0)
  const list = useAttention({ handled, limit: PAGE, offset })
  const retry = useRetryAttention()
  const items = list.data?.items ?? []
  const count = list.data?.count ?? 0
  return (
    <Container className="divide-y p-0" data-testid="payneteasy-attention">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Attention</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Payments a person must act on. Mark an item handled once you have dealt with it.
          </Text>
        </div>
        <div className="w-48">
          <Select value={handled} onValueChange={(v) => (setHandled(v as typeof handled), setOffset(0))}>
            <Select.Trigger data-testid="payneteasy-attention-filter">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value="false">Open</Select.Item>
              <Select.Item value="true">Handled</Select.Item>
              <Select.Item value="all">All</Select.Item>
            </Select.Content>
          </Select>
        </div>
      </div>
      {list.isLoading && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          Loading…
        </Text>
      )}
      {list.isError && (
        <div className="px-6 py-4">
          <Alert variant="error">The attention list could not be loaded: {errorText(list.error)}</Alert>
        </div>
      )}
      {!list.isLoading && !list.isError && items.length === 0 && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="payneteasy-attention-empty">
          {handled === "true" ? "Nothing has been marked handled yet." : "Nothing needs attention."}
        </Text>
      )}
      {items.map((item) => (
        <div key={item.id} className="flex flex-col gap-y-2 px-6 py-4" data-testid="payneteasy-attention-item" data-item-id={item.id}>
          <div className="flex items-center justify-between gap-x-4">
            <div className="flex items-center gap-x-2">
              <Badge color={RED.has(item.kind) ? "red" : "orange"} size="2xsmall" data-testid="payneteasy-attention-kind">
                {KIND_LABEL[item.kind] ?? item.kind}
              </Badge>
              <Text size="small" weight="plus">
                {item.title}
              </Text>
            </div>
            {item.handled ? (
              <Text size="small" className="text-ui-fg-subtle" data-testid="payneteasy-attention-handled">
                <CheckCircle className="inline" /> Handled by {item.handled.by_email ?? item.handled.by} at {when(item.handled.at)}
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
                      retry.mutate(item, {
                        onSuccess: () => toast.success("Retried: the list shows what it did"),
                        onError: (e) => toast.error(errorText(e)),
                      })
                    }
                  >
                    Retry
                  </Button>
                )}
                <MarkHandled item={item} />
              </div>
            )}
          </div>
          <Text size="small">
            <span className="text-ui-fg-subtle">What to do: </span>
            {item.what_to_do}
          </Text>
          <Text size="xsmall" className="text-ui-fg-subtle">
            {when(item.occurred_at)}
            {item.orderid ? ` · gateway order ${item.orderid}` : ""}
            {item.client_orderid ? ` · client_orderid ${item.client_orderid}` : ""}
            {item.amount ? ` · ${item.amount} ${item.currency ?? ""}` : ""}
            {item.detail ? ` · ${item.detail}` : ""}
          </Text>
          {(item.order_id || item.payout_id) && (
            <Text size="xsmall">
              {item.order_id && (
                <Link to={`/orders/${item.order_id}`} className="text-ui-fg-interactive" data-testid="payneteasy-attention-order">
                  Open the order
                </Link>
              )}
              {item.payout_id && (
                <Link to={`/payouts/${item.payout_id}`} className="text-ui-fg-interactive" data-testid="payneteasy-attention-payout">
                  Open the payout
                </Link>
              )}
            </Text>
          )}
        </div>
      ))}
      {count > PAGE && (
        <Table.Pagination
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
