/**
 * Customer page widget (zone customer.details.after): the customer's PaynetEasy saved cards — brand and last four (the dashboard's one card masking),
 * expiry, where the card came from (the order as a "#18" link) — with delete (after a confirmation). Never shows the gateway's card reference.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { Button, Container, Heading, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { errorText } from "../lib/hooks"
import { orderRef } from "../lib/formatters"
import { useWords } from "../lib/use-words"
import { cardWords, useCustomerCards, useDeleteCustomerCard, type AdminSavedCard } from "../lib/saved-card-hooks"

function CustomerCardsWidget({ data: customer }: DetailWidgetProps<HttpTypes.AdminCustomer>) {
  const cards = useCustomerCards(customer.id)
  const remove = useDeleteCustomerCard(customer.id)
  const prompt = usePrompt()
  const { t } = useWords()

  const onDelete = async (card: AdminSavedCard) => {
    const ok = await prompt({
      title: "Delete saved card?",
      description: `${cardWords(card)} can no longer be charged after this.`,
      confirmText: "Delete",
      cancelText: "Cancel",
    })
    if (!ok) return
    remove.mutate(card.id, {
      onSuccess: () => toast.success("Saved card deleted"),
      onError: (e) => toast.error(errorText(e)),
    })
  }

  return (
    <Container className="divide-y p-0" data-testid="payneteasy-customer-cards">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Saved cards (PaynetEasy)</Heading>
      </div>
      {cards.isLoading ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">Loading…</Text>
      ) : cards.isError ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">{errorText(cards.error)}</Text>
      ) : !cards.data?.cards.length ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="payneteasy-no-cards">No saved cards.</Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Card</Table.HeaderCell>
              <Table.HeaderCell>Expiry</Table.HeaderCell>
              <Table.HeaderCell>Holder</Table.HeaderCell>
              <Table.HeaderCell>Saved from</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {cards.data.cards.map((c) => (
              <Table.Row key={c.id} data-testid="payneteasy-customer-card">
                <Table.Cell>{cardWords(c)}</Table.Cell>
                <Table.Cell>{c.exp_month && c.exp_year ? `${c.exp_month}/${c.exp_year}` : "—"}</Table.Cell>
                <Table.Cell>{c.holder ?? "—"}</Table.Cell>
                <Table.Cell>
                  {c.source_order_id ? (
                    <Link to={`/orders/${c.source_order_id}`} className="text-ui-fg-interactive" data-testid="payneteasy-card-source-order">
                      {t("payneteasy.retry.fromOrder", { order: c.source_order_display_id != null ? orderRef(c.source_order_display_id) : c.source_order_id })}
                    </Link>
                  ) : c.source === "verification" ? "card verification" : c.source}
                </Table.Cell>
                <Table.Cell className="text-right">
                  <Button size="small" variant="danger" onClick={() => onDelete(c)} isLoading={remove.isPending} data-testid="payneteasy-delete-card">
                    Delete
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "customer.details.after" })

export default CustomerCardsWidget
