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
import { useCustomerCards, useDeleteCustomerCard, type AdminSavedCard } from "../lib/saved-card-hooks"
import { useWords } from "../lib/use-words"

function CustomerCardsWidget({ data: customer }: DetailWidgetProps<HttpTypes.AdminCustomer>) {
  const cards = useCustomerCards(customer.id)
  const remove = useDeleteCustomerCard(customer.id)
  const prompt = usePrompt()
  const { t, card } = useWords()

  const onDelete = async (c: AdminSavedCard) => {
    const ok = await prompt({
      title: t("payneteasy.cards.deleteTitle"),
      description: t("payneteasy.cards.deleteDescription", { card: card(c.brand, c.last4) }),
      confirmText: t("payneteasy.cards.delete"),
      cancelText: t("payneteasy.common.cancel"),
    })
    if (!ok) return
    remove.mutate(c.id, {
      onSuccess: () => toast.success(t("payneteasy.cards.deleted")),
      onError: (e) => toast.error(errorText(e)),
    })
  }

  return (
    <Container className="divide-y p-0" data-testid="payneteasy-customer-cards">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("payneteasy.cards.title")}</Heading>
      </div>
      {cards.isLoading ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">{t("payneteasy.common.loading")}</Text>
      ) : cards.isError ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">{errorText(cards.error)}</Text>
      ) : !cards.data?.cards.length ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="payneteasy-no-cards">{t("payneteasy.cards.none")}</Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("payneteasy.cards.card")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.cards.expiry")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.cards.holder")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.cards.savedFrom")}</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {cards.data.cards.map((c) => (
              <Table.Row key={c.id} data-testid="payneteasy-customer-card">
                <Table.Cell>{card(c.brand, c.last4)}</Table.Cell>
                <Table.Cell>{c.exp_month && c.exp_year ? `${c.exp_month}/${c.exp_year}` : "—"}</Table.Cell>
                <Table.Cell>{c.holder ?? "—"}</Table.Cell>
                <Table.Cell>
                  {c.source_order_id ? (
                    <Link to={`/orders/${c.source_order_id}`} className="text-ui-fg-interactive" data-testid="payneteasy-card-source-order">
                      {t("payneteasy.retry.fromOrder", { order: c.source_order_display_id != null ? orderRef(c.source_order_display_id) : c.source_order_id })}
                    </Link>
                  ) : c.source === "verification" ? t("payneteasy.cards.fromVerification") : c.source}
                </Table.Cell>
                <Table.Cell className="text-right">
                  <Button size="small" variant="danger" onClick={() => onDelete(c)} isLoading={remove.isPending} data-testid="payneteasy-delete-card">
                    {t("payneteasy.cards.delete")}
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
