/**
 * `medusa-payneteasy doctor` — says in words whether a set of PaynetEasy credentials works, with the same check the
 * admin's connection page runs (src/gateway/doctor.ts): one STATUS for a made-up order, nothing is paid or created.
 * Credentials come from flags or the PAYNETEASY_* environment variables, like `request`. Prints what it checked
 * (base URL, endpoint, the login masked, whether an RSA key is loaded — never a key) and the verdict.
 * Exit 0: the credentials work; 1: they do not, or the gateway cannot be reached; 2: usage error, nothing sent.
 */
import { checkGatewayConnection, describeConfig } from "../../gateway/doctor"
import { scrub, type GatewayConfig } from "../../gateway"
import { parse } from "../args"
import { CREDENTIAL_OPTIONS, credentialsFrom, readKeyFile, secretsOf } from "../credentials"
import { CliUsageError, EXIT, println, type CliIO } from "../io"

export const DOCTOR_HELP = `Usage: medusa-payneteasy doctor [options]

Checks whether PaynetEasy credentials work: sends one STATUS request for a made-up order (nothing is paid or
created) and says in words what the gateway thinks of the login, endpoint and control key.

Options (each may come from the environment variable shown):
  --base-url <url>            gateway URL incl. path prefix          PAYNETEASY_BASE_URL
  --endpoint-id <id>          endpoint id                            PAYNETEASY_ENDPOINT_ID
  --endpoint-group-id <id>    endpoint group id (instead of --endpoint-id)
  --login <login>             merchant login                         PAYNETEASY_LOGIN
  --control-key <key>         merchant control key (secret)          PAYNETEASY_CONTROL_KEY
  --private-key <pem file>    RSA private key (reported as loaded)   PAYNETEASY_PRIVATE_KEY (a path)
  --pan-eligibility <on|off>  whether card payouts ask PAN eligibility first (the provider
                              option panEligibility; default on)     PAYNETEASY_PAN_ELIGIBILITY
  --timeout <ms>              connect/headers/body timeout (default 10000)
  --json                      print the result as JSON
  -h, --help                  show this help

Exit status: 0 the credentials work; 1 they do not, or the gateway cannot be reached; 2 usage error.
The control key and the private key are never printed; the login is shown masked.

Example:
  medusa-payneteasy doctor --base-url http://127.0.0.1:4010/paynet --endpoint-id 1111 \\
    --login sandbox-merchant --control-key "$PAYNETEASY_CONTROL_KEY"
`

const OPTIONS = {
  ...CREDENTIAL_OPTIONS,
  json: { type: "boolean" },
  "pan-eligibility": { type: "string" },
} as const

/** on / off from the flag or PAYNETEASY_PAN_ELIGIBILITY; on when neither says. */
function panEligibilityOf(flag: unknown, env: Record<string, string | undefined>): boolean {
  const v = String(flag ?? env.PAYNETEASY_PAN_ELIGIBILITY ?? "on").trim().toLowerCase()
  if (["on", "true", "1", "yes"].includes(v)) return true
  if (["off", "false", "0", "no"].includes(v)) return false
  throw new CliUsageError(`--pan-eligibility must be on or off, got "${scrub(v).slice(0, 20)}"`)
}

/** What the doctor says about PAN eligibility. */
export const panEligibilityWords = (on: boolean) =>
  on
    ? "on: a payout to a card asks PAN eligibility first (pan-eligibility/send; an ineligible card is refused before any money request)"
    : "off: card payouts are sent without asking PAN eligibility (provider option panEligibility: false)"

export async function doctorCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS)
  if (values.help) {
    io.stdout.write(DOCTOR_HELP)
    return EXIT.OK
  }
  if (positionals.length) throw new CliUsageError(`unexpected argument "${scrub(positionals[0]).slice(0, 40)}"`)
  const { config: credentials, keyPath, timeoutMs: timeout } = credentialsFrom(values, io.env)
  // Doctor reports whether the key parses (describeConfig), so only an unreadable file is refused here.
  const privateKeyPem = keyPath ? readKeyFile(keyPath) : undefined
  const config: GatewayConfig = { ...credentials, ...(privateKeyPem ? { privateKeyPem } : {}) }
  const secrets = secretsOf(config)
  const panEligibility = panEligibilityOf(values["pan-eligibility"], io.env)
  const view = describeConfig(config)
  const check = await checkGatewayConnection(config, { timeoutMs: timeout })
  if (values.json) {
    println(io.stdout, scrub(JSON.stringify({ ...view, pan_eligibility: panEligibility, check }, null, 2), secrets))
  } else {
    const endpoint = view.endpoint ? `${view.endpoint.kind} ${view.endpoint.id}` : "none"
    println(io.stdout, `gateway:   ${view.base_url}`)
    println(io.stdout, `endpoint:  ${endpoint}`)
    println(io.stdout, `login:     ${view.login_masked}`)
    println(io.stdout, `RSA key:   ${view.rsa_key_loaded ? `loaded${view.rsa_key_bits ? ` (${view.rsa_key_bits} bits)` : " (unreadable)"}` : "not loaded"}`)
    println(io.stdout, `PAN eligibility: ${panEligibilityWords(panEligibility)}`)
    println(io.stdout, scrub(`${check.ok ? "OK" : "FAILED"} (${check.verdict}, ${check.duration_ms} ms): ${check.message}`, secrets))
  }
  return check.ok ? EXIT.OK : EXIT.FAILURE
}
