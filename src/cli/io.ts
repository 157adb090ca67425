/**
 * What a command may touch: its output streams and environment, injected so tests run commands in-process and
 * inspect exactly what a user would see. `signal` lets a caller (a test) stop a long-running command such as
 * `sandbox`; without it the command waits for SIGINT/SIGTERM.
 */
export interface CliIO {
  stdout: { write(chunk: string): unknown }
  stderr: { write(chunk: string): unknown }
  env: Record<string, string | undefined>
  signal?: AbortSignal
}

/** A mistake in how the command was called (bad flag, missing value, unknown operation). Exit code 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "CliUsageError"
  }
}

/** Exit codes shared by all commands. */
export const EXIT = {
  OK: 0,
  /** The command ran and the answer is "no" / the gateway or network failed. */
  FAILURE: 1,
  /** Refused before doing anything: usage error or input the gateway would reject (nothing was sent). */
  USAGE: 2,
} as const

export function println(stream: { write(chunk: string): unknown }, line = ""): void {
  stream.write(line + "\n")
}
