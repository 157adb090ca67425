/**
 * The sidebar's "PaynetEasy" icon with the attention count: Medusa's route config takes a fixed label but renders the
 * icon as a component, so the open items' count is shown in the icon's place (a red badge) while anything needs a
 * person, and the card icon when nothing does. The count comes from the attention route (refreshed every minute).
 */
import { CreditCard } from "@medusajs/icons"
import { useAttentionCount } from "../lib/hooks"
import { useWords } from "../lib/use-words"

export function AttentionNavIcon() {
  const { data: count } = useAttentionCount()
  const { t } = useWords()
  if (!count) return <CreditCard />
  return (
    <span
      className="bg-ui-tag-red-icon text-ui-fg-on-color flex h-[15px] w-[15px] items-center justify-center text-[9px] font-medium leading-none"
      data-testid="payneteasy-attention-count"
      data-count={count}
      title={t("payneteasy.attention.count", { count })}
      aria-label={t("payneteasy.attention.count", { count })}
    >
      {count > 99 ? "99+" : count}
    </span>
  )
}

/** "Attention" with the open count, for the page's tab. */
export function AttentionTabLabel() {
  const { data: count } = useAttentionCount()
  const { t } = useWords()
  return (
    <>
      {t("payneteasy.page.attentionTab")}
      {count ? (
        <span className="text-ui-fg-error ml-1" data-testid="payneteasy-attention-tab-count">
          ({count})
        </span>
      ) : null}
    </>
  )
}
