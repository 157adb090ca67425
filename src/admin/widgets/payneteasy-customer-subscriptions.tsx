/**
 * Customer page widget (zone customer.details.after): the customer's PaynetEasy subscriptions — what and how often,
 * status, next charge, charges so far, the order each came from ("#18", linked to its page, where it can be cancelled
 * or a past-due charge retried).
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { Container, Heading, Table, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { Status, when } from "../components/format"
import { errorText } from "../lib/hooks"
import { useRecurringPayments } from "../lib/recurring"
import { describeSchedule } from "../lib/subscription-schedule"
import { orderRef } from "../lib/formatters"

function CustomerSubscriptionsWidget({ data: customer }: DetailWidgetProps<HttpTypes.AdminCustomer>) {
  const list = useRecurringPayments({ customer_id: customer.id })

  return (
    <Container className="divide-y p-0" data-testid="payneteasy-customer-subscriptions">
      <div className="px-6 py-4">
        <Heading level="h2">Subscriptions (PaynetEasy)</Heading>
      </div>
      {list.isLoading ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">Loading…</Text>
      ) : list.isError ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">{errorText(list.error)}</Text>
      ) : !list.data?.recurring_payments.length ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="payneteasy-no-subscriptions">No subscriptions.</Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Subscription</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell>Next charge</Table.HeaderCell>
              <Table.HeaderCell>Charges</Table.HeaderCell>
              <Table.HeaderCell>From order</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {list.data.recurring_payments.map((rp) => (
              <Table.Row key={rp.id} data-testid="payneteasy-customer-subscription">
                <Table.Cell>{`${rp.amount} ${rp.currency_code.toUpperCase()} ${describeSchedule(rp)}`}</Table.Cell>
                <Table.Cell>
                  <Status group="recurring" value={rp.status} />
                </Table.Cell>
                <Table.Cell>{rp.status === "active" ? when(rp.next_charge_at) : "—"}</Table.Cell>
                <Table.Cell>{rp.charges.filter((c) => c.status === "approved").length} approved / {rp.charges.length}</Table.Cell>
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
