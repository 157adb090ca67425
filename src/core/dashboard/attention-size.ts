/**
 * The attention queue's size by kind, counting the items nobody marked handled: what the
 * `payneteasy.attention.items` gauge reports (core/telemetry/metrics.ts) each time the metric reader collects. Every
 * kind is reported, 0 included, so an alert on "more than 0" clears when the last item is handled.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { attentionItems } from "./attention"
import { ATTENTION_KINDS } from "./attention-item"

export async function openAttentionCounts(container: MedusaContainer): Promise<Map<string, number>> {
  const counts = new Map<string, number>(ATTENTION_KINDS.map((k) => [k, 0]))
  for (const item of await attentionItems(container)) {
    if (!item.handled) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1)
  }
  return counts
}
