/**
 * Step reporting for the demo: every stage runs inside `step(name, fn)`, which prints progress and, on failure,
 * rethrows a `DemoStepError` that names the step. The entry point turns that into one "demo: FAILED" line and a
 * non-zero exit — a newcomer should always see which step broke and why, never a bare stack trace or a fake success.
 */

export class DemoStepError extends Error {
  constructor(
    readonly step: string,
    readonly reason: string,
    readonly detail?: string
  ) {
    super(`step "${step}" failed: ${reason}`)
    this.name = "DemoStepError"
  }
}

/** Thrown inside a step when an expectation about Medusa's or the gateway's state does not hold. */
export class DemoCheckError extends Error {
  constructor(message: string, readonly detail?: string) {
    super(message)
    this.name = "DemoCheckError"
  }
}

let counter = 0

export function say(line = ""): void {
  process.stdout.write(`${line}\n`)
}

/** Runs one named step; prints `▸ name` / `✓ name (1.2s) — note`; wraps any failure into a DemoStepError. */
export async function step<T>(name: string, fn: () => Promise<T>, note?: (result: T) => string | undefined): Promise<T> {
  counter += 1
  const label = `${String(counter).padStart(2, " ")}. ${name}`
  say(`▸ ${label}`)
  const started = Date.now()
  try {
    const result = await fn()
    const extra = note?.(result)
    say(`✓ ${label} (${seconds(started)}s)${extra ? ` — ${extra}` : ""}`)
    return result
  } catch (error) {
    say(`✗ ${label} (${seconds(started)}s)`)
    if (error instanceof DemoStepError) throw error
    throw new DemoStepError(name, describeError(error), error instanceof DemoCheckError ? error.detail : stackOf(error))
  }
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs` with `what` in the message. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined) return value
    } catch (error) {
      lastError = error
    }
    if (Date.now() >= deadline) {
      const why = lastError ? ` (last error: ${describeError(lastError)})` : ""
      throw new DemoCheckError(`timed out after ${timeoutMs / 1000}s waiting for ${what}${why}`)
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** One-line reason for any thrown value, including js-sdk FetchError (status + message) and axios-like errors. */
export function describeError(error: unknown): string {
  if (error && typeof error === "object") {
    const e = error as { message?: unknown; status?: unknown; statusText?: unknown; code?: unknown }
    const parts: string[] = []
    if (typeof e.status === "number") parts.push(`HTTP ${e.status}${e.statusText ? ` ${String(e.statusText)}` : ""}`)
    if (typeof e.code === "string" && !String(e.message ?? "").includes(e.code)) parts.push(e.code)
    if (typeof e.message === "string" && e.message) parts.push(e.message)
    if (parts.length) return parts.join(": ")
  }
  return String(error)
}

function stackOf(error: unknown): string | undefined {
  return error instanceof Error ? error.stack : undefined
}

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(1)
}
