/**
 * Order page side-column widget (zone order.details.side.before): the PaynetEasy money of this order at a glance —
 * authorized, captured, refunded, charged back and left to capture, per currency, in Medusa's money format. Reads the
 * same data as the panel (one request, shared through react-query). Renders nothing for orders not paid through
 * PaynetEasy.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { Container, Heading, Text } from "@medusajs/ui"
import { useOrderPanel } from "../lib/hooks"
import type { MoneySummary } from "../lib/types"
import { useWords } from "../lib/use-words"

const ROWS: Array<[keyof Omit<MoneySummary, "currency">, string]> = [
  ["authorized", "payneteasy.summary.authorized"],
  ["captured", "payneteasy.summary.captured"],
  ["refunded", "payneteasy.summary.refunded"],
  ["charged_back", "payneteasy.summary.chargedBack"],
  ["left_to_capture", "payneteasy.summary.leftToCapture"],
]

const isZero = (v: string) => !/[1-9]/.test(v)

const PaynetEasyOrderSummary = ({ data }: DetailWidgetProps<HttpTypes.AdminOrder>) => {
  const panel = useOrderPanel(data.id)
  const w = useWords()
  const order = panel.data?.order
  if (!order?.is_payneteasy) return null
  return (
    <Container className="divide-y p-0" data-testid="payneteasy-summary">
      <div className="px-6 py-4">
        <Heading level="h2">{w.t("payneteasy.summary.title")}</Heading>
      </div>
      {order.summary.length === 0 ? (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          {w.t("payneteasy.summary.none")}
        </Text>
      ) : (
        order.summary.map((s) => (
          <div key={s.currency} className="flex flex-col gap-y-2 px-6 py-4" data-currency={s.currency}>
            {ROWS.map(([field, key]) => (
              <div key={field} className="flex items-center justify-between">
                <Text size="small" leading="compact" className="text-ui-fg-subtle">
                  {w.t(key)}
                </Text>
                <Text
                  size="small"
                  leading="compact"
                  weight={field === "left_to_capture" ? "plus" : "regular"}
                  data-testid={`payneteasy-summary-${field.replace(/_/g, "-")}`}
                  data-value={s[field]}
                >
                  {w.money(s[field], s.currency)}
                </Text>
              </div>
            ))}
            {!isZero(s.pending) && (
              <div className="flex items-center justify-between">
                <Text size="small" leading="compact" className="text-ui-fg-subtle">
                  {w.t("payneteasy.summary.pending")}
                </Text>
                <Text size="small" leading="compact" data-testid="payneteasy-summary-pending" data-value={s.pending}>
                  {w.money(s.pending, s.currency)}
                </Text>
              </div>
            )}
          </div>
        ))
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.before" })

export default PaynetEasyOrderSummary
