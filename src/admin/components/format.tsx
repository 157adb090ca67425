/** Small display helpers shared by the order widget and the PaynetEasy page (dates, statuses as badges). */
import { StatusBadge } from "@medusajs/ui"

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "—")

const COLORS: Record<string, "green" | "red" | "orange" | "blue" | "grey" | "purple"> = {
  approved: "green",
  processed: "green",
  final: "green",
  ok: "green",
  declined: "red",
  error: "red",
  failed: "red",
  filtered: "red",
  flagged: "orange",
  processing: "blue",
  pending: "blue",
  received: "blue",
  unknown: "orange",
  ignored: "grey",
  active: "green",
  cancelled: "grey",
  canceled: "grey",
  not_set_up: "orange",
  needs_attention: "orange",
  past_due: "red",
  unmatched: "orange",
}

export function Status({ value }: { value: string | null | undefined }) {
  const v = (value ?? "—").toLowerCase()
  return <StatusBadge color={COLORS[v] ?? "grey"}>{value ?? "—"}</StatusBadge>
}
