/**
 * `medusa-payneteasy sandbox` — run the local gateway simulator (src/sandbox) until SIGINT/SIGTERM.
 * Prints the settings in effect, then `sandbox listening on http://HOST:PORT` once it accepts requests (scripts and
 * tests wait for that line). The default merchant's control key is public test data and is printed so a developer can
 * configure the provider; a control key given with --control-key is the user's own and is not echoed.
 * The sandbox module is loaded only when this command runs, so `request`/`keys`/`callback` do not pay for it.
 */
import { readFileSync } from "node:fs"
import { intFlag, parse } from "../args"
import { CliUsageError, EXIT, println, type CliIO } from "../io"

type SandboxModule = typeof import("../../sandbox")

function loadSandbox(): SandboxModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("../../sandbox") as SandboxModule
}

export function sandboxHelp({ DEFAULT_SANDBOX_MERCHANT }: SandboxModule = loadSandbox()): string {
  return `Usage: medusa-payneteasy sandbox [options]

Runs a local PaynetEasy gateway simulator (same API paths, control/OAuth checks, hosted payment page, 3-D Secure
challenge, callbacks) for development and tests. No real money, no real cards. Stop it with Ctrl-C.

Options:
  --port <n>                 port to listen on (default 4010; 0 = any free port)
  --host <host>              interface to bind (default 127.0.0.1)
  --login <login>            merchant login (default ${DEFAULT_SANDBOX_MERCHANT.login})
  --control-key <key>        merchant control key (default: the public sandbox key, printed at start)
  --endpoint-id <id>         endpoint id, repeatable (default ${DEFAULT_SANDBOX_MERCHANT.endpointIds.join(", ")})
  --endpoint-group-id <id>   endpoint group id, repeatable (default ${DEFAULT_SANDBOX_MERCHANT.endpointGroupIds.join(", ")})
  --public-key <pem file>    RSA public key that verifies RSA-SHA256 signed requests (v4 operations)
  --processing-ms <ms>       how long a transaction stays "processing" (default 500)
  --callback-delay-ms <ms>   delay before each callback is sent (default 0)
  -h, --help                 show this help

Test cards: any valid card number; the CVV2 picks the outcome: 123/1234 approve, 321 3-D Secure challenge,
111 approve without 3-D Secure, 217 stays "unknown", 101/116/119/209 decline with a reason, other values decline.

Example:
  medusa-payneteasy sandbox --port 4010
  # then configure the provider with baseUrl http://127.0.0.1:4010/paynet, endpointId 1111,
  # login ${DEFAULT_SANDBOX_MERCHANT.login}, controlKey ${DEFAULT_SANDBOX_MERCHANT.controlKey}
`
}

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  login: { type: "string" },
  "control-key": { type: "string" },
  "endpoint-id": { type: "string", multiple: true },
  "endpoint-group-id": { type: "string", multiple: true },
  "public-key": { type: "string" },
  "processing-ms": { type: "string" },
  "callback-delay-ms": { type: "string" },
} as const

/** Resolves when the caller's signal aborts, or on SIGINT/SIGTERM when there is no signal. */
function untilStopped(signal: AbortSignal | undefined): Promise<string> {
  if (signal) {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve("abort")
      signal.addEventListener("abort", () => resolve("abort"), { once: true })
    })
  }
  return new Promise((resolve) => {
    const stop = (name: string) => {
      process.off("SIGINT", onInt)
      process.off("SIGTERM", onTerm)
      resolve(name)
    }
    const onInt = () => stop("SIGINT")
    const onTerm = () => stop("SIGTERM")
    process.on("SIGINT", onInt)
    process.on("SIGTERM", onTerm)
  })
}

export async function sandboxCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS)
  const sandboxModule = loadSandbox()
  const { DEFAULT_SANDBOX_MERCHANT, startSandbox } = sandboxModule
  if (values.help) {
    io.stdout.write(sandboxHelp(sandboxModule))
    return EXIT.OK
  }
  if (positionals.length) throw new CliUsageError(`unexpected argument "${positionals[0].slice(0, 40)}"`)
  const port = intFlag(values.port, "--port", { max: 65535 }) ?? 4010
  const host = values.host ?? "127.0.0.1"
  const processingMs = intFlag(values["processing-ms"], "--processing-ms")
  const callbackDelayMs = intFlag(values["callback-delay-ms"], "--callback-delay-ms")
  const ownKey = values["control-key"] !== undefined
  if (ownKey && values["control-key"]!.trim() === "") throw new CliUsageError("--control-key must not be empty")
  let publicKeyPem: string | undefined
  if (values["public-key"]) {
    try {
      publicKeyPem = readFileSync(values["public-key"], "utf8")
    } catch (e) {
      throw new CliUsageError(`cannot read --public-key ${values["public-key"]}: ${(e as NodeJS.ErrnoException).code ?? "error"}`)
    }
  }
  const merchant = {
    login: values.login ?? DEFAULT_SANDBOX_MERCHANT.login,
    controlKey: values["control-key"] ?? DEFAULT_SANDBOX_MERCHANT.controlKey,
    endpointIds: values["endpoint-id"]?.length ? values["endpoint-id"] : [...DEFAULT_SANDBOX_MERCHANT.endpointIds],
    endpointGroupIds: values["endpoint-group-id"]?.length
      ? values["endpoint-group-id"]
      : [...DEFAULT_SANDBOX_MERCHANT.endpointGroupIds],
    ...(publicKeyPem ? { publicKeyPem } : {}),
  }
  for (const id of [...merchant.endpointIds, ...merchant.endpointGroupIds]) {
    if (!/^\d+$/.test(id)) throw new CliUsageError(`endpoint ids are numeric, got "${id.slice(0, 20)}"`)
  }

  println(io.stdout, "PaynetEasy sandbox (local simulator: no real money, no real cards)")
  println(io.stdout, `  login             ${merchant.login}`)
  println(io.stdout, `  control key       ${ownKey ? "(as given with --control-key; not shown)" : merchant.controlKey}`)
  println(io.stdout, `  endpoint ids      ${merchant.endpointIds.join(", ")}`)
  println(io.stdout, `  endpoint groups   ${merchant.endpointGroupIds.join(", ") || "(none)"}`)
  println(io.stdout, `  RSA public key    ${publicKeyPem ? values["public-key"] : "(none: RSA-SHA256 requests are refused)"}`)
  println(io.stdout, `  processing        ${processingMs ?? 500} ms`)
  println(io.stdout, `  callback delay    ${callbackDelayMs ?? 0} ms`)

  const sandbox = await startSandbox({
    port,
    host,
    merchants: [merchant],
    ...(processingMs !== undefined ? { processingMs } : {}),
    ...(callbackDelayMs !== undefined ? { callbackDelayMs } : {}),
    logger: (line: string) => println(io.stdout, `  · ${line}`),
  })
  // Listen for the stop signal BEFORE announcing readiness: a supervisor may send SIGTERM the instant it reads the line.
  const stopped = untilStopped(io.signal)
  println(io.stdout, `  gateway base URL  ${sandbox.url}   (the provider's baseUrl)`)
  println(io.stdout, `sandbox listening on ${sandbox.origin}`)
  const why = await stopped
  await sandbox.close()
  println(io.stdout, `sandbox stopped (${why})`)
  return EXIT.OK
}
