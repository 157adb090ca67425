/**
 * Thin wrapper over node's util.parseArgs: strict parsing, `--help`/`-h` on every command, and parse failures turned
 * into CliUsageError with the message node gives ("Unknown option '--x'"), so every command reports them the same way.
 */
import { parseArgs, type ParseArgsConfig } from "node:util"
import { CliUsageError } from "./io"

type Options = NonNullable<ParseArgsConfig["options"]>

export function parse<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    })
  } catch (e) {
    throw new CliUsageError((e as Error).message)
  }
}

/** A flag value, else the environment variable, else undefined (empty strings count as unset). */
export function flagOrEnv(value: unknown, env: Record<string, string | undefined>, name: string): string | undefined {
  if (typeof value === "string" && value !== "") return value
  const fromEnv = env[name]
  return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv
}

/** A non-negative integer flag ("--timeout 5000"); the flag is named in the error. */
export function intFlag(value: string | undefined, flag: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value.trim())) throw new CliUsageError(`${flag} must be a whole number, got "${value.slice(0, 20)}"`)
  const n = Number(value.trim())
  if (n < min || n > max) throw new CliUsageError(`${flag} must be between ${min} and ${max}, got ${n}`)
  return n
}
