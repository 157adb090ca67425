/**
 * Parsing with a z.looseObject schema, faster: zod compiles a z.object to a fast path, but a catchall (which is what
 * makes an object "loose") turns that off, and the table's replies and the session data are loose objects read on
 * every gateway call (bench: "gateway call", "provider authorize"). So the known keys go through the compiled
 * z.object of the same shape, and the unknown keys are copied as they are — all a looseObject's catchall does with
 * them. Same data, same issues; any other schema is parsed as it is.
 *
 * Faster still for the reply schemas, whose keys are all plain strings, string literals and strings with an
 * `.overwrite` (the wire status), optional or not: a check read off the schema's own shape that accepts only what the
 * z.object accepts and writes what it writes. A record it accepts is done without entering zod (whose run, cold
 * after the HTTP exchange, cost about 2.6 µs of a STATUS call's 20 µs over its floor); anything it does not accept,
 * and every other kind of shape, goes through zod as before, so zod still words every issue.
 */
import { z } from "zod"

/** One known key: a string (with its overwrites, in order) or one of some literal values; may be absent if optional. */
interface KeyCheck {
  key: string
  optional: boolean
  literals?: ReadonlySet<unknown>
  overwrites: Array<(value: string) => string>
}

interface Compiled {
  /** z.object of the same shape: the known keys' parser when `checks` cannot decide */
  known: z.ZodType
  /** undefined when the shape holds any other kind of schema */
  checks?: KeyCheck[]
}

/** Per schema: how to parse it, or false for a schema that is not a loose object (parsed by zod as it is). */
const compiledOf = new WeakMap<z.ZodType, Compiled | false>()

/** A schema's zod internals, as far as this file reads them. */
type Def = { type?: string; innerType?: z.ZodType; values?: unknown[]; checks?: Array<{ _zod: { def: { check?: string; tx?: (v: string) => string } } }>; coerce?: boolean }
const defOf = (schema: z.ZodType): Def => (schema as unknown as { def: Def }).def

function keyCheck(key: string, schema: z.ZodType, optional = false): KeyCheck | undefined {
  const def = defOf(schema)
  if (def.type === "optional" && !optional && def.innerType) return keyCheck(key, def.innerType, true)
  if (def.type === "literal" && Array.isArray(def.values) && !def.checks?.length) {
    return { key, optional, literals: new Set(def.values), overwrites: [] }
  }
  if (def.type === "string" && !def.coerce) {
    const overwrites: KeyCheck["overwrites"] = []
    for (const check of def.checks ?? []) {
      const { check: kind, tx } = check._zod.def
      if (kind !== "overwrite" || typeof tx !== "function") return undefined
      overwrites.push(tx)
    }
    return { key, optional, overwrites }
  }
  return undefined
}

function compile(schema: z.ZodObject): Compiled {
  const shape = schema.shape as Record<string, z.ZodType>
  const known = z.object(shape)
  if (schema.def.checks?.length) return { known }
  const checks: KeyCheck[] = []
  for (const key of Object.keys(shape)) {
    const check = keyCheck(key, shape[key])
    if (!check) return { known }
    checks.push(check)
  }
  return { known, checks }
}

/** Whether every known key of `record` is what the z.object would accept as it is (its overwrites aside). */
function passes(checks: readonly KeyCheck[], record: Record<string, unknown>): boolean {
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i]
    const v = record[c.key]
    if (v === undefined) {
      if (c.optional) continue
      return false
    }
    if (c.literals ? !c.literals.has(v) : typeof v !== "string") return false
  }
  return true
}

export function safeParseLoose<T extends Record<string, unknown>>(
  schema: z.ZodType<T>,
  value: unknown,
  /** The caller owns `value` and will not read it again: the result is written into it instead of a copy. */
  inPlace = false,
): z.ZodSafeParseResult<T> {
  // The kind of schema is looked up once: zod's classes answer `instanceof` through Symbol.hasInstance (a walk over
  // the schema's traits), which two checks per call made a visible part of this function's time.
  let compiled = compiledOf.get(schema)
  if (compiled === undefined) {
    compiled = schema instanceof z.ZodObject && schema.def.catchall instanceof z.ZodUnknown && compile(schema)
    compiledOf.set(schema, compiled)
  }
  if (compiled === false) return schema.safeParse(value)
  const { checks } = compiled
  if (checks && value !== null && typeof value === "object" && !Array.isArray(value) && passes(checks, value as Record<string, unknown>)) {
    const data: Record<string, unknown> = inPlace ? (value as Record<string, unknown>) : { ...(value as Record<string, unknown>) }
    for (let i = 0; i < checks.length; i++) {
      const c = checks[i]
      if (c.overwrites.length === 0) continue
      const v = data[c.key]
      if (typeof v !== "string") continue
      let written = v
      for (const tx of c.overwrites) written = tx(written)
      data[c.key] = written
    }
    return { success: true, data: data as T }
  }
  const result = compiled.known.safeParse(value)
  if (!result.success) return result as z.ZodSafeParseResult<T>
  const data = inPlace
    ? Object.assign(value as Record<string, unknown>, result.data)
    : { ...(value as Record<string, unknown>), ...(result.data as Record<string, unknown>) }
  return { success: true, data: data as T }
}
