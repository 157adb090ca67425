/**
 * Customer page widget (zone customer.details.after): the customer's PaynetEasy subscriptions — what and how often,
 * status, next charge, charges so far, the order each came from ("#18", linked to its page, where it can be cancelled
 * or a past-due charge retried).
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { Container, Heading, Table, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { Status } from "../components/format"
import { errorText } from "../lib/hooks"
import { useRecurringPayments } from "../lib/recurring"
import { orderRef } from "../lib/formatters"
import { useWords } from "../lib/use-words"

function CustomerSubscriptionsWidget({ data: customer }: DetailWidgetProps<HttpTypes.AdminCustomer>) {
  const list = useRecurringPayments({ customer_id: customer.id })
  const w = useWords()
  const { t } = w

  return (
    <Container className="divide-y p-0" data-testid="payneteasy-customer-subscriptions">
      <div className="px-6 py-4">
        <Heading level="h2">{t("payneteasy.customerSubscriptions.title")}</Heading>
      </div>
      {list.isLoading ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">{t("payneteasy.common.loading")}</Text>
      ) : list.isError ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">{errorText(list.error)}</Text>
      ) : !list.data?.recurring_payments.length ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="payneteasy-no-subscriptions">{t("payneteasy.customerSubscriptions.none")}</Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("payneteasy.customerSubscriptions.subscription")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.customerSubscriptions.status")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.customerSubscriptions.nextCharge")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.customerSubscriptions.charges")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.customerSubscriptions.fromOrder")}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {list.data.recurring_payments.map((rp) => (
              <Table.Row key={rp.id} data-testid="payneteasy-customer-subscription">
                <Table.Cell>{`${w.money(rp.amount, rp.currency_code)} ${w.schedule(rp)}`}</Table.Cell>
                <Table.Cell>
                  <Status group="recurring" value={rp.status} />
                </Table.Cell>
                <Table.Cell>{rp.status === "active" ? w.date(rp.next_charge_at) : "—"}</Table.Cell>
                <Table.Cell>{t("payneteasy.customerSubscriptions.approvedOf", { approved: rp.charges.filter((c) => c.status === "approved").length, total: rp.charges.length })}</Table.Cell>
                <Table.Cell>
                  <Link to={`/orders/${rp.order_id}`} className="text-ui-fg-interactive" data-testid="payneteasy-subscription-order">
                    {rp.order_display_id != null ? orderRef(rp.order_display_id) : rp.order_id}
                  </Link>
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

export default CustomerSubscriptionsWidget
