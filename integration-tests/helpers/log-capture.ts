/**
 * Everything written to stdout / stderr or through `console` while a suite runs, for the specs that prove no card
 * number or secret reaches a log. Medusa's logger (winston's Console transport) writes to `console._stdout` when the
 * console has one, else through a console.log it bound at import. Jest's buffering console (several spec files in one
 * run) has no `_stdout`, so those lines would never reach process.stdout: we give the console a `_stdout` that
 * records, and capture the console methods as well. The recorder is the real stdout in every other respect (Node's
 * Console and the migration runner's logger call its listener methods, as when a file runs alone).
 *
 * Call `captureLogs()` at the top level of a spec; it installs in beforeAll and restores in afterAll, and the array
 * it returns fills as the suite runs.
 */
import { format } from "node:util"

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug"] as const

export function captureLogs(): string[] {
  const logged: string[] = []
  const originalOut = process.stdout.write.bind(process.stdout)
  const originalErr = process.stderr.write.bind(process.stderr)
  const originalConsole = Object.fromEntries(CONSOLE_METHODS.map((m) => [m, console[m]])) as Record<
    (typeof CONSOLE_METHODS)[number],
    (...a: unknown[]) => void
  >
  const hadStdout = Object.prototype.hasOwnProperty.call(console, "_stdout")
  const originalConsoleStdout = (console as any)._stdout
  const recordTo = (write: (chunk: any, ...rest: any[]) => boolean) => (chunk: any, ...rest: any[]) => {
    logged.push(String(chunk))
    return write(chunk, ...rest)
  }

  beforeAll(() => {
    ;(console as any)._stdout = Object.create(process.stdout, { write: { value: recordTo(originalOut) } })
    for (const m of CONSOLE_METHODS) {
      console[m] = (...args: unknown[]) => {
        logged.push(format(...args))
        originalConsole[m].apply(console, args)
      }
    }
    process.stdout.write = recordTo(originalOut) as typeof process.stdout.write
    process.stderr.write = recordTo(originalErr) as typeof process.stderr.write
  })
  afterAll(() => {
    for (const m of CONSOLE_METHODS) console[m] = originalConsole[m]
    if (hadStdout) (console as any)._stdout = originalConsoleStdout
    else delete (console as any)._stdout
    process.stdout.write = originalOut
    process.stderr.write = originalErr
  })
  return logged
}
