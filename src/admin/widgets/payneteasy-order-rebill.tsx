/**
 * Order page widget (zone order.details.side.after): "Charge saved card". Shown when the order has an outstanding
 * amount and its customer has PaynetEasy saved cards: pick a card, see the amount (the outstanding amount by default),
 * confirm — POST /admin/payneteasy/orders/:id/rebill. The answer (approved, not confirmed yet, or the gateway's reason)
 * is shown as a toast.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { Button, Container, Heading, Input, Label, Select, Text, toast, usePrompt } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { errorText } from "../lib/hooks"
import { maskedNumber, useCustomerCards, useOrderOutstanding, useRebillOrder } from "../lib/saved-card-hooks"

function OrderRebillWidget({ data: order }: DetailWidgetProps<HttpTypes.AdminOrder>) {
  const outstanding = useOrderOutstanding(order.id)
  const cards = useCustomerCards(outstanding.data?.customer_id)
  const rebill = useRebillOrder(order.id)
  const prompt = usePrompt()
  const [cardId, setCardId] = useState<string>("")
  const [amount, setAmount] = useState<string>("")

  const due = outstanding.data?.outstanding ?? 0
  const currency = (outstanding.data?.currency_code ?? "").toUpperCase()
  useEffect(() => {
    if (due > 0) setAmount(String(due))
  }, [due])
  useEffect(() => {
    if (!cardId && cards.data?.cards[0]) setCardId(cards.data.cards[0].id)
  }, [cards.data, cardId])

  if (!outstanding.data || due <= 0 || !cards.data?.cards.length) return null

  const onCharge = async () => {
    const card = cards.data!.cards.find((c) => c.id === cardId)
    if (!card) return
    const ok = await prompt({
      title: "Charge saved card?",
      description: `Charge ${amount} ${currency} to ${card.brand ?? "card"} ${maskedNumber(card)} now, without the customer present.`,
      confirmText: "Charge",
      cancelText: "Cancel",
    })
    if (!ok) return
    rebill.mutate(
      { card_id: card.id, ...(amount && Number(amount) !== due ? { amount } : {}) },
      {
        onSuccess: (r) =>
          r.payment
            ? toast.success(`Charged ${r.payment.amount} ${r.payment.currency_code.toUpperCase()} (gateway: ${r.gateway_status})`)
            : toast.warning(r.message ?? "PaynetEasy has not confirmed the charge yet. Check the order at the gateway before charging again."),
        onError: (e) => toast.error(errorText(e)),
      }
    )
  }

  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="payneteasy-order-rebill">
      <Heading level="h2">Charge saved card</Heading>
      <Text size="small" data-testid="payneteasy-outstanding">
        Outstanding: {due} {currency}
      </Text>
      <div className="flex flex-col gap-y-1">
        <Label size="small">Card</Label>
        <Select value={cardId} onValueChange={setCardId}>
          <Select.Trigger data-testid="payneteasy-rebill-card">
            <Select.Value placeholder="Choose a card" />
          </Select.Trigger>
          <Select.Content>
            {cards.data.cards.map((c) => (
              <Select.Item key={c.id} value={c.id}>{`${c.brand ?? "Card"} ${maskedNumber(c)} ${c.exp_month ?? ""}/${c.exp_year ?? ""}`}</Select.Item>
            ))}
          </Select.Content>
        </Select>
      </div>
      <div className="flex flex-col gap-y-1">
        <Label size="small">Amount ({currency})</Label>
        <Input size="small" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="payneteasy-rebill-amount" />
      </div>
      <Button size="small" onClick={onCharge} isLoading={rebill.isPending} data-testid="payneteasy-rebill-charge">
        Charge saved card
      </Button>
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default OrderRebillWidget
