/**
 * Store-route bodies that may carry card data (PAN, CVV, expiry) or 3-D Secure results, validated by Medusa's own
 * `validateAndTransformBody` without ever echoing a received value.
 *
 * Why a wrapper: Medusa 2.21.2 formats a zod failure itself (@medusajs/framework dist/zod/zod-helpers.js,
 * `formatError`), and for three issue kinds it ignores the schema's message and prints the value it received:
 *   invalid_type  → `Expected type: '…' for field '…', got: '${received}'`   (formatInvalidType)
 *   invalid_value → `Expected: '…' for field '…', but got: '${receivedValue}'` (enums, literals)
 *   invalid_union → the same invalid_type text for the union's branches        (formatUnionError)
 * So `{ card: { number: 4111111111111111 } }` (a JSON number) would come back as `got: '4111111111111111'`, in the
 * 400 and in the info log line its error handler writes. It also calls `.strict()` on a top-level object schema,
 * which answers `Unrecognized fields: '<the caller's key names>'`.
 * Every other issue kind prints `issue.message` as is. Hence `valueFreeBody(schema)`: it parses with `schema` and
 * re-reports each failure as a "custom" issue whose message is the field's path and zod's or the schema's message
 * (zod's messages name expected types, limits and options, never the input; our schemas' messages never contain
 * values either), and unknown keys as a count, not by name. The wrapper is not an object schema, so Medusa adds no
 * `.strict()`: unknown top-level keys are dropped, as an inner z.object drops them.
 */
import { z } from "@medusajs/framework/zod"

/** The part of a zod (v4) schema this needs: the plugin's schemas use the `zod` package, Medusa's its own copy. */
interface ParsesSafely<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<Issue> } }
}
interface Issue {
  code: string
  path: ReadonlyArray<PropertyKey>
  message: string
}

/** A value-free text for one issue: starts with the field's path (dot-separated; "body" for the whole body). */
export function valueFreeMessage(issue: Issue): string {
  const field = issue.path.length ? issue.path.map(String).join(".") : "body"
  if (issue.code === "unrecognized_keys") {
    const count = (issue as Issue & { keys?: unknown[] }).keys?.length ?? 1
    return `${field} has ${count} field(s) this route does not accept`
  }
  return issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`
}

/** `schema`, for validateAndTransformBody, with failures Medusa reports by the messages above only. */
export function valueFreeBody<T>(schema: ParsesSafely<T>) {
  return z.unknown().transform((input, ctx): T => {
    const parsed = schema.safeParse(input)
    if (parsed.success) return parsed.data
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: "custom", path: [...issue.path], message: valueFreeMessage(issue) })
    }
    return z.NEVER
  })
}
