/**
 * "Retry the charge" of a past-due subscription (issue 35), on the attention item and on the subscription card: asks
 * first, naming the amount, the currency and the card it charges ("€25.83 … Visa •••• 1111"), then charges it once
 * (lib/recurring.ts useRetryCharge) and says in a toast what happened: approved (the renewal order), declined (stays
 * past due), or not confirmed yet (the card may have been charged; retrying asks the gateway, never charges twice).
 */
import { Button, toast, usePrompt } from "@medusajs/ui"
import { errorText } from "../lib/hooks"
import { orderRef } from "../lib/formatters"
import { useRetryCharge } from "../lib/recurring"
import { useWords } from "../lib/use-words"

export type RetryChargeTarget = {
  url: string
  amount: string
  currency: string
  card: { brand: string | null; last4: string } | null
}

export function RetryChargeButton({ target, testId = "payneteasy-retry-charge" }: { target: RetryChargeTarget; testId?: string }) {
  const { t, money, card } = useWords()
  const prompt = usePrompt()
  const retry = useRetryCharge()
  const amount = money(target.amount, target.currency)
  const cardText = card(target.card?.brand, target.card?.last4)

  const onClick = async () => {
    const ok = await prompt({
      title: t("payneteasy.retry.confirmTitle"),
      description: t("payneteasy.retry.confirmDescription", { amount, card: cardText }),
      confirmText: t("payneteasy.retry.confirmText", { amount }),
      cancelText: t("payneteasy.retry.cancelText"),
    })
    if (!ok) return
    // The answer's toast hangs on the request's promise, not on mutate()'s callbacks: those are dropped when this
    // button unmounts first, and it does (the refetched attention list no longer holds the item once it is charged).
    retry.mutateAsync(target.url).then(
      (answer) => {
        if (answer.outcome === "approved") {
          const renewal = answer.recurring_payment?.charges.find((c) => c.renewal_order_id && c.renewal_order_id === answer.retry?.renewal_order_id)
          toast.success(t("payneteasy.retry.approved", { amount, card: cardText }), {
            description: renewal?.renewal_order_display_id != null
              ? t("payneteasy.retry.approvedOrder", { order: orderRef(renewal.renewal_order_display_id) })
              : t("payneteasy.retry.approvedDetail"),
          })
        } else if (answer.outcome === "declined") {
          toast.error(t("payneteasy.retry.declined", { amount }), { description: `${t("payneteasy.retry.declinedDetail")} ${answer.message}` })
        } else {
          toast.warning(t("payneteasy.retry.pending", { amount }), { description: t("payneteasy.retry.pendingDetail") })
        }
      },
      (e) => toast.error(t("payneteasy.retry.failed"), { description: errorText(e) })
    )
  }

  return (
    <Button size="small" variant="secondary" className="shrink-0" isLoading={retry.isPending} onClick={onClick} data-testid={testId}>
      {t("payneteasy.retry.button")}
    </Button>
  )
}
