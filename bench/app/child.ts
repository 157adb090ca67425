/**
 * Parent side of bench/app/server.ts: starts the Medusa process (ts-node, --expose-gc so RSS is read after a full GC;
 * BENCH_CPU_PROF=<dir> adds --cpu-prof there) and calls its IPC commands.
 */
import { fork, type ChildProcess } from "node:child_process"
import path from "node:path"
import type { Ready } from "./shared"

export interface AppProcess {
  ready: Ready
  pid: number
  call<T = any>(cmd: string, args?: unknown): Promise<T>
  stop(): Promise<void>
}

export async function startAppProcess(opts: { bootTimeoutMs?: number } = {}): Promise<AppProcess> {
  const execArgv = ["--expose-gc", "-r", "ts-node/register/transpile-only"]
  if (process.env.BENCH_CPU_PROF) execArgv.push("--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`)
  const child: ChildProcess = fork(path.join(__dirname, "server.ts"), [], {
    execArgv,
    env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error", MEDUSA_DISABLE_TELEMETRY: "true", NODE_ENV: process.env.BENCH_NODE_ENV ?? "production",
      // HTTP server with subscribers, no scheduled jobs: the reconciliation job would otherwise claim the bench's
      // watch rows and sessions every 3 s; the reconciliation figure runs the tick itself.
      MEDUSA_WORKER_MODE: "server" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  })
  let seq = 0
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>()
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the bench Medusa app did not boot in time")), opts.bootTimeoutMs ?? 240_000)
    child.on("message", (msg: any) => {
      if (msg.ready) {
        clearTimeout(timer)
        resolve(msg.ready)
      } else if (msg.failed) {
        clearTimeout(timer)
        reject(new Error(`the bench Medusa app failed to boot:\n${msg.failed}`))
      } else if (typeof msg.id === "number") {
        const p = pending.get(msg.id)
        pending.delete(msg.id)
        if (msg.ok) p?.resolve(msg.result)
        else p?.reject(new Error(msg.error))
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the bench Medusa app exited with ${code}`))
      for (const p of pending.values()) p.reject(new Error(`the bench Medusa app exited with ${code}`))
    })
  })
  return {
    ready,
    pid: child.pid!,
    call: (cmd, args) =>
      new Promise((resolve, reject) => {
        const id = ++seq
        pending.set(id, { resolve, reject })
        child.send({ id, cmd, args })
      }),
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise<void>((r) => child.once("exit", () => r()))
      child.send({ id: ++seq, cmd: "shutdown" })
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000)
      await exited
      clearTimeout(timer)
    },
  }
}
