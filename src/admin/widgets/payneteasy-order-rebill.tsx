/**
 * Order page widget (zone order.details.side.after): "Charge saved card". Shown when the server says something may be
 * charged (GET /admin/payneteasy/orders/:id/rebill: what the order owes and is neither paid, authorized nor pending in
 * a rebill — the widget does no arithmetic of its own) and the customer has PaynetEasy saved cards: pick a card, see
 * the amount (all of it by default), confirm — POST /admin/payneteasy/orders/:id/rebill. When nothing may be charged
 * because of a pending rebill or an authorization to capture, it says so instead. The answer (approved, not confirmed
 * yet, or the gateway's reason) is shown as a toast.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { Button, Container, Heading, Input, Label, Select, Text, toast, usePrompt } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { errorText } from "../lib/hooks"
import { useWords } from "../lib/use-words"
import { useCustomerCards, useRebillBalance, useRebillOrder } from "../lib/saved-card-hooks"

function OrderRebillWidget({ data: order }: DetailWidgetProps<HttpTypes.AdminOrder>) {
  const balance = useRebillBalance(order.id)
  const cards = useCustomerCards(balance.data?.customer_id ?? undefined)
  const rebill = useRebillOrder(order.id)
  const prompt = usePrompt()
  const w = useWords()
  const [cardId, setCardId] = useState<string>("")
  const [amount, setAmount] = useState<string>("")

  const chargeable = balance.data && !balance.data.refusal ? balance.data.chargeable : null
  const currency = (balance.data?.currency_code ?? "").toUpperCase()
  useEffect(() => {
    if (chargeable) setAmount(chargeable)
  }, [chargeable])
  useEffect(() => {
    if (!cardId && cards.data?.cards[0]) setCardId(cards.data.cards[0].id)
  }, [cards.data, cardId])

  if (!balance.data || !cards.data?.cards.length) return null
  const refusal = balance.data.refusal
  // Paid: nothing to show. A pending rebill or an authorization to capture: say so, offer no charge.
  if (refusal?.type === "no_balance") return null
  if (refusal || !chargeable) {
    return (
      <Container className="flex flex-col gap-y-2 px-6 py-4" data-testid="payneteasy-order-rebill">
        <Heading level="h2">{w.t("payneteasy.rebill.title")}</Heading>
        <Text size="small" data-testid="payneteasy-rebill-refusal">{refusal?.message}</Text>
      </Container>
    )
  }

  const onCharge = async () => {
    const card = cards.data!.cards.find((c) => c.id === cardId)
    if (!card) return
    const ok = await prompt({
      title: w.t("payneteasy.rebill.confirmTitle"),
      description: w.t("payneteasy.rebill.confirmDescription", { amount: w.money(amount, currency), card: w.card(card.brand, card.last4) }),
      confirmText: w.t("payneteasy.rebill.confirm"),
      cancelText: w.t("payneteasy.common.cancel"),
    })
    if (!ok) return
    rebill.mutate(
      { card_id: card.id, ...(amount && amount !== chargeable ? { amount } : {}) },
      {
        onSuccess: (r) =>
          r.payment
            ? toast.success(w.t("payneteasy.rebill.charged", { amount: w.money(r.payment.amount, r.payment.currency_code), card: w.card(card.brand, card.last4) }))
            : toast.warning(r.message ?? w.t("payneteasy.rebill.notConfirmed")),
        onError: (e) => toast.error(errorText(e)),
      }
    )
  }

  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="payneteasy-order-rebill">
      <Heading level="h2">{w.t("payneteasy.rebill.title")}</Heading>
      <Text size="small" data-testid="payneteasy-outstanding">
        {w.t("payneteasy.rebill.chargeable", { amount: w.money(chargeable, currency) })}
      </Text>
      <div className="flex flex-col gap-y-1">
        <Label size="small">{w.t("payneteasy.rebill.card")}</Label>
        <Select value={cardId} onValueChange={setCardId}>
          <Select.Trigger data-testid="payneteasy-rebill-card">
            <Select.Value placeholder={w.t("payneteasy.rebill.chooseCard")} />
          </Select.Trigger>
          <Select.Content>
            {cards.data.cards.map((c) => (
              <Select.Item key={c.id} value={c.id}>{`${w.card(c.brand, c.last4)} · ${c.exp_month ?? ""}/${c.exp_year ?? ""}`}</Select.Item>
            ))}
          </Select.Content>
        </Select>
      </div>
      <div className="flex flex-col gap-y-1">
        <Label size="small">{w.t("payneteasy.rebill.amount", { currency })}</Label>
        <Input size="small" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="payneteasy-rebill-amount" />
      </div>
      <Button size="small" onClick={onCharge} isLoading={rebill.isPending} data-testid="payneteasy-rebill-charge">
        {w.t("payneteasy.rebill.submit")}
      </Button>
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default OrderRebillWidget
