/** Test helper: run the CLI in-process and capture what a user would see. */
import { main } from "../index"
import type { CliIO } from "../io"

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = {},
  signal?: AbortSignal,
  onStdout?: (text: string) => void
): Promise<RunResult> {
  let stdout = ""
  let stderr = ""
  const io: CliIO = {
    stdout: {
      write: (c: string) => {
        stdout += c
        onStdout?.(stdout)
        return true
      },
    },
    stderr: { write: (c: string) => ((stderr += c), true) },
    env,
    signal,
  }
  const code = await main(argv, io)
  return { code, stdout, stderr }
}
