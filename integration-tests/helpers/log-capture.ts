/**
 * `captureLogs()` — call at the top level of a spec: records everything written to stdout / stderr or through
 * `console` while the spec runs (Medusa's winston Console transport writes to `console._stdout` when the console has
 * one, so one is provided), for "no card data in the logs" assertions. Returns the accessor of the text so far.
 * Same technique as provider-direct.spec.ts, as a helper for new specs, except that the console's `_stdout` is the real
 * stream behind a recording proxy (a bare `{ write }` object breaks Node's console, which calls `removeListener` on it).
 */
import { format } from "node:util"

export function captureLogs(): () => string {
  const logged: string[] = []
  const originalOut = process.stdout.write.bind(process.stdout)
  const originalErr = process.stderr.write.bind(process.stderr)
  const METHODS = ["log", "info", "warn", "error", "debug"] as const
  const originalConsole = Object.fromEntries(METHODS.map((m) => [m, console[m]])) as Record<(typeof METHODS)[number], (...a: unknown[]) => void>
  const hadStdout = Object.prototype.hasOwnProperty.call(console, "_stdout")
  const originalConsoleStdout = (console as any)._stdout
  beforeAll(() => {
    // A full stream (Node's console calls once/removeListener on it), whose write also records.
    ;(console as any)._stdout = new Proxy(process.stdout, {
      get(target, key) {
        if (key === "write") return (chunk: any, ...rest: any[]) => (logged.push(String(chunk)), originalOut(chunk, ...rest))
        const v = Reflect.get(target, key)
        return typeof v === "function" ? v.bind(target) : v
      },
    })
    for (const m of METHODS) {
      console[m] = (...args: unknown[]) => {
        logged.push(format(...args))
        originalConsole[m].apply(console, args)
      }
    }
    process.stdout.write = ((chunk: any, ...rest: any[]) => (logged.push(String(chunk)), originalOut(chunk, ...rest))) as typeof process.stdout.write
    process.stderr.write = ((chunk: any, ...rest: any[]) => (logged.push(String(chunk)), originalErr(chunk, ...rest))) as typeof process.stderr.write
  })
  afterAll(() => {
    for (const m of METHODS) console[m] = originalConsole[m]
    if (hadStdout) (console as any)._stdout = originalConsoleStdout
    else delete (console as any)._stdout
    process.stdout.write = originalOut
    process.stderr.write = originalErr
  })
  return () => logged.join("")
}
