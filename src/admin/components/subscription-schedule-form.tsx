/**
 * The "Subscription (PaynetEasy)" card of the product page and the variant page: shows the schedule stored in
 * `metadata.payneteasy_recurring`, edits it (period, interval; validated before anything is sent, the error naming the
 * field) and removes it. Saving goes through Medusa's own product/variant update (../lib/recurring.ts useSaveSchedule).
 */
import { Button, Container, Heading, Input, Label, Select, Text, toast, usePrompt } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { errorText } from "../lib/hooks"
import { useSaveSchedule, type ScheduleTarget } from "../lib/recurring"
import { PERIODS, checkSchedule, invalidScheduleReason, readSchedule } from "../lib/subscription-schedule"
import { useWords } from "../lib/use-words"

/** The card's words on a product page or a variant page (a product's hint says variants may override it). */
export function SubscriptionScheduleCard(props: { target: ScheduleTarget; metadata: Record<string, unknown> | null | undefined }) {
  const w = useWords()
  const { t } = w
  const kind = props.target.kind // "product" | "variant": the card's own sentences (payneteasy.scheduleCard.<kind>.*)
  const stored = readSchedule(props.metadata)
  const invalid = invalidScheduleReason(props.metadata)
  const save = useSaveSchedule(props.target)
  const prompt = usePrompt()
  const [editing, setEditing] = useState(false)
  const [period, setPeriod] = useState<string>(stored?.period ?? "month")
  const [intervalText, setIntervalText] = useState<string>(String(stored?.interval ?? 1))
  const [error, setError] = useState<{ field: string; message: string } | null>(null)

  useEffect(() => {
    if (editing) return
    setPeriod(stored?.period ?? "month")
    setIntervalText(String(stored?.interval ?? 1))
  }, [stored?.period, stored?.interval, editing])

  const onSave = () => {
    const check = checkSchedule({ period, interval: intervalText })
    if (!check.ok) {
      setError({ field: check.field, message: t(`payneteasy.schedule.${check.key}`, check.values) })
      return
    }
    setError(null)
    save.mutate(check.schedule, {
      onSuccess: () => {
        setEditing(false)
        toast.success(t(`payneteasy.scheduleCard.${kind}.saved`, { schedule: w.schedule(check.schedule) }))
      },
      onError: (e) => toast.error(errorText(e)),
    })
  }

  const onRemove = async () => {
    const ok = await prompt({
      title: t("payneteasy.scheduleCard.removeTitle"),
      description: t(`payneteasy.scheduleCard.${kind}.removeDescription`),
      confirmText: t("payneteasy.scheduleCard.removeConfirm"),
      cancelText: t("payneteasy.common.cancel"),
    })
    if (!ok) return
    save.mutate(null, {
      onSuccess: () => toast.success(t(`payneteasy.scheduleCard.${kind}.removed`)),
      onError: (e) => toast.error(errorText(e)),
    })
  }

  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="payneteasy-subscription">
      <Heading level="h2">{t("payneteasy.scheduleCard.title")}</Heading>
      <Text size="small" className="text-ui-fg-subtle" data-testid="payneteasy-subscription-state">
        {stored
          ? t("payneteasy.scheduleCard.sold", { schedule: w.schedule(stored) })
          : t("payneteasy.scheduleCard.notSubscription")}
      </Text>
      {invalid && (
        <Text size="small" className="text-ui-fg-error" data-testid="payneteasy-subscription-invalid">
          {t("payneteasy.scheduleCard.invalid", { reason: invalid })}
        </Text>
      )}
      <Text size="xsmall" className="text-ui-fg-muted">{t(`payneteasy.scheduleCard.${kind}.hint`)}</Text>
      {editing ? (
        <div className="flex flex-col gap-y-3">
          <div className="flex gap-x-3">
            <div className="flex flex-1 flex-col gap-y-1">
              <Label size="small" htmlFor="payneteasy-subscription-interval">{t("payneteasy.scheduleCard.every")}</Label>
              <Input
                id="payneteasy-subscription-interval"
                size="small"
                inputMode="numeric"
                value={intervalText}
                onChange={(e) => setIntervalText(e.target.value)}
                aria-invalid={error?.field === "interval"}
                data-testid="payneteasy-subscription-interval"
              />
            </div>
            <div className="flex flex-1 flex-col gap-y-1">
              <Label size="small">{t("payneteasy.scheduleCard.period")}</Label>
              <Select value={period} onValueChange={setPeriod}>
                <Select.Trigger data-testid="payneteasy-subscription-period" aria-invalid={error?.field === "period"}>
                  <Select.Value />
                </Select.Trigger>
                <Select.Content>
                  {PERIODS.map((p) => (
                    <Select.Item key={p} value={p}>{t(`payneteasy.schedule.period.${p}`)}</Select.Item>
                  ))}
                </Select.Content>
              </Select>
            </div>
          </div>
          {error && (
            <Text size="small" className="text-ui-fg-error" data-testid="payneteasy-subscription-error">{error.message}</Text>
          )}
          <div className="flex justify-end gap-x-2">
            <Button size="small" variant="secondary" onClick={() => { setEditing(false); setError(null) }}>{t("payneteasy.common.cancel")}</Button>
            <Button size="small" onClick={onSave} isLoading={save.isPending} data-testid="payneteasy-subscription-save">{t("payneteasy.scheduleCard.save")}</Button>
          </div>
        </div>
      ) : (
        <div className="flex justify-end gap-x-2">
          {(stored || invalid) && (
            <Button size="small" variant="danger" onClick={onRemove} isLoading={save.isPending} data-testid="payneteasy-subscription-remove">
              {t("payneteasy.scheduleCard.remove")}
            </Button>
          )}
          <Button size="small" variant="secondary" onClick={() => setEditing(true)} data-testid="payneteasy-subscription-edit">
            {stored ? t("payneteasy.scheduleCard.edit") : t("payneteasy.scheduleCard.sell")}
          </Button>
        </div>
      )}
    </Container>
  )
}
