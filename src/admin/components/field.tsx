/**
 * One label/value pair of a detail card, the Medusa dashboard's way (small subtle label over the value), laid out by
 * the caller in a `grid grid-cols-2 gap-4`. Shared by the order page widgets (payment panel, subscription card).
 */
import { Text } from "@medusajs/ui"

export function Field({ label, value, testId, mono = true }: { label: string; value: React.ReactNode; testId?: string; mono?: boolean }) {
  return (
    <div className="flex flex-col gap-y-1">
      <Text size="xsmall" leading="compact" className="text-ui-fg-subtle">
        {label}
      </Text>
      <Text size="small" leading="compact" className={mono ? "break-all font-mono" : "break-words"} data-testid={testId}>
        {value ?? "—"}
      </Text>
    </div>
  )
}
