/**
 * Order page widget (zone order.details.after): the PaynetEasy recurring payment(s) created from this order — schedule,
 * status, charges and their renewal orders, cancel — or, for an order with subscription items that got none (a guest
 * order, no private key, a decline), the recorded reason. Hidden on orders without subscription items.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { Container, Heading, Text } from "@medusajs/ui"
import { RecurringPaymentCard } from "../components/recurring-payment-card"
import { errorText } from "../lib/hooks"
import { useRecurringPayments } from "../lib/recurring"
import { useWords } from "../lib/use-words"

function OrderRecurringWidget({ data: order }: DetailWidgetProps<HttpTypes.AdminOrder>) {
  const list = useRecurringPayments({ order_id: order.id })
  const { t } = useWords()
  if (list.isLoading) return null
  if (!list.isError && !list.data?.recurring_payments.length) return null

  return (
    <Container className="divide-y p-0" data-testid="payneteasy-order-recurring">
      <div className="px-6 py-4">
        <Heading level="h2">{t("payneteasy.recurring.title")}</Heading>
      </div>
      {list.isError ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">{errorText(list.error)}</Text>
      ) : (
        list.data!.recurring_payments.map((rp) => <RecurringPaymentCard key={rp.id} rp={rp} />)
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.after" })

export default OrderRecurringWidget
