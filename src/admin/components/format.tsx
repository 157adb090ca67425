/** Statuses as badges, through the one label table (lib/labels.ts) in the admin's language; dates the dashboard's way. */
import { StatusBadge } from "@medusajs/ui"
import type { StatusGroup } from "../lib/labels"
import { formatDate } from "../lib/formatters"
import { useWords } from "../lib/use-words"

export function Status({ group, value, testId }: { group: StatusGroup; value: string | null | undefined; testId?: string }) {
  const w = useWords()
  if (value === null || value === undefined || value === "") return <>—</>
  const s = w.status(group, value)
  return (
    <StatusBadge color={s.color} data-testid={testId} data-status={value}>
      {s.label}
    </StatusBadge>
  )
}

/** A date as Medusa's dashboard writes it, in the admin's language. */
export function When({ iso }: { iso: string | null | undefined }) {
  const w = useWords()
  return <>{w.date(iso)}</>
}

/** A date outside a component (a string): the dashboard's medium date and short time, in English. */
export const when = (iso: string | null | undefined) => formatDate(iso)
