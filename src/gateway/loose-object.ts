/**
 * Parsing with a z.looseObject schema, faster: zod compiles a z.object to a fast path, but a catchall (which is what
 * makes an object "loose") turns that off, and the table's replies and the session data are loose objects read on
 * every gateway call (bench: "gateway call", "provider authorize"). So the known keys go through the compiled
 * z.object of the same shape, and the unknown keys are copied as they are — all a looseObject's catchall does with
 * them. Same data, same issues; any other schema is parsed as it is.
 */
import { z } from "zod"

const knownKeysOf = new WeakMap<z.ZodType, z.ZodType>()

export function safeParseLoose<T extends Record<string, unknown>>(
  schema: z.ZodType<T>,
  value: unknown,
  /** The caller owns `value` and will not read it again: the result is written into it instead of a copy. */
  inPlace = false,
): z.ZodSafeParseResult<T> {
  if (!(schema instanceof z.ZodObject) || !(schema.def.catchall instanceof z.ZodUnknown)) return schema.safeParse(value)
  let known = knownKeysOf.get(schema)
  if (!known) knownKeysOf.set(schema, (known = z.object(schema.shape)))
  const result = known.safeParse(value)
  if (!result.success) return result as z.ZodSafeParseResult<T>
  const data = inPlace
    ? Object.assign(value as Record<string, unknown>, result.data)
    : { ...(value as Record<string, unknown>), ...(result.data as Record<string, unknown>) }
  return { success: true, data: data as T }
}
