/**
 * `medusa-payneteasy callback verify --control-key <key> '<query string>'` — checks the `control` of a callback or
 * return request the gateway sent (sha1(status + orderid + client_orderid + control key), see src/gateway/callback.ts).
 * Exit 0 valid, 1 invalid, 2 usage error. Useful when reading a captured callback URL from a log.
 */
import { missingCallbackFields, verifyCallback } from "../../gateway"
import { flagOrEnv, parse } from "../args"
import { CliUsageError, EXIT, println, type CliIO } from "../io"

export const CALLBACK_HELP = `Usage: medusa-payneteasy callback verify --control-key <key> '<query string>'

Checks the control checksum of a PaynetEasy callback (the GET to server_callback_url) or return (the POST to
redirect_url): control = sha1(status + orderid + client_orderid + merchant control key).
The query string may start with "?" or be a full URL; a form body (a=b&c=d) works the same way.

Options:
  --control-key <key>   merchant control key; prefer PAYNETEASY_CONTROL_KEY (a flag value is visible in ps and
                        the shell history)
  -h, --help            show this help

Exit status: 0 valid, 1 invalid (or fields missing), 2 usage error.

Example:
  medusa-payneteasy callback verify \\
    'status=approved&orderid=1234567&client_orderid=payses_01H...&control=3f1e...'
  (with PAYNETEASY_CONTROL_KEY exported)
`

/** URLSearchParams → record; a repeated key becomes an array (verifyCallback refuses ambiguous repeats). */
function paramsOf(input: string): Record<string, string | string[]> {
  let query = input.trim()
  const q = query.indexOf("?")
  if (/^[a-z]+:\/\//i.test(query)) query = q >= 0 ? query.slice(q + 1) : ""
  else if (query.startsWith("?")) query = query.slice(1)
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = out[k]
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]
  }
  return out
}

export async function callbackCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, { "control-key": { type: "string" } })
  const [sub, query, ...rest] = positionals
  if (values.help || sub === undefined) {
    ;(values.help ? io.stdout : io.stderr).write(CALLBACK_HELP)
    return values.help ? EXIT.OK : EXIT.USAGE
  }
  if (sub !== "verify") throw new CliUsageError(`unknown callback subcommand "${sub.slice(0, 20)}" (try: callback verify --help)`)
  if (query === undefined) throw new CliUsageError("missing the callback query string")
  if (rest.length) throw new CliUsageError("pass the query string as ONE argument (quote it: '...&...')")
  const controlKey = flagOrEnv(values["control-key"], io.env, "PAYNETEASY_CONTROL_KEY")
  if (!controlKey) throw new CliUsageError("missing --control-key (or PAYNETEASY_CONTROL_KEY)")
  const params = paramsOf(query)
  if (verifyCallback(params, controlKey)) {
    println(io.stdout, "valid: the control checksum matches")
    return EXIT.OK
  }
  const missing = missingCallbackFields(params)
  println(
    io.stdout,
    missing.length ? `invalid: missing ${missing.join(", ")}` : "invalid: the control checksum does not match this control key"
  )
  return EXIT.FAILURE
}
