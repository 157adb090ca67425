/**
 * `medusa-payneteasy request <OPERATION> [field=value ...]` — send one gateway operation with the real client and
 * print the parsed reply as JSON.
 *
 * Everything the API needs beyond the fields (login, control checksum or OAuth signature, amount validation,
 * form encoding) is the client's job (src/gateway); this command only gathers credentials from flags/env and fields
 * from the command line. Refusals happen before any byte is sent: unknown operation, a field the client refuses
 * (e.g. an amount with more decimals than its currency has: JPY 10.5, KWD 1.2345), a missing or < 2048-bit private
 * key for an RSA-SHA256 operation. Everything printed goes through the client's `scrub` with the control key and
 * private key as extra secrets, so neither secrets nor a PAN/CVV typed as a field ever reach the terminal.
 */
import {
  GatewayConfigError,
  GatewayError,
  GatewayInputError,
  GatewayTransportError,
  OPERATION_NAMES,
  PaynetEasyClient,
  findOperation,
  scrub,
  type GatewayConfig,
  type OperationName,
  type SignatureMethod,
} from "../../gateway"
import { parse } from "../args"
import { CREDENTIAL_OPTIONS, credentialsFrom, readPrivateKey, secretsOf } from "../credentials"
import { CliUsageError, EXIT, println, type CliIO } from "../io"

export const REQUEST_HELP = `Usage: medusa-payneteasy request <OPERATION> [field=value ...] [options]

Sends one PaynetEasy operation and prints the gateway's parsed reply as JSON.
OPERATION is a name from the operation table, case-insensitive (sale, preauth, status, payout, cardref_v4, ...).
Fields use the API's own names; amounts are major-unit decimals (amount=10.42 currency=EUR). The client adds
login, control/OAuth signature and checks required fields; unknown fields are passed through.

Options (each may come from the environment variable shown):
  --base-url <url>            gateway URL incl. path prefix          PAYNETEASY_BASE_URL
  --endpoint-id <id>          endpoint id                            PAYNETEASY_ENDPOINT_ID
  --endpoint-group-id <id>    endpoint group id (instead of --endpoint-id)
  --login <login>             merchant login                         PAYNETEASY_LOGIN
  --control-key <key>         merchant control key (secret; prefer   PAYNETEASY_CONTROL_KEY
                              the variable: a flag value is visible in ps and the shell history)
  --private-key <pem file>    RSA private key for RSA-SHA256 ops     PAYNETEASY_PRIVATE_KEY (a path)
  --signature <method>        OAuth method override: HMAC-SHA1 | RSA-SHA256 (OAuth operations only)
  --timeout <ms>              connect/headers/body timeout in milliseconds
  --verbose                   also print the request (scrubbed) to stderr
  -h, --help                  show this help

Exit status: 0 reply printed; 1 the gateway or network failed (error on stderr); 2 refused before sending
(usage error, unknown operation, invalid field — the field is named).
Secrets, card numbers and CVVs are never printed.

Example:
  medusa-payneteasy request status --base-url http://127.0.0.1:4010/paynet --endpoint-id 1111 \\
    --login sandbox-merchant client_orderid=order-42 orderid=1234567   # with PAYNETEASY_CONTROL_KEY set

Operations: ${OPERATION_NAMES.join(", ")}
`

const OPTIONS = {
  ...CREDENTIAL_OPTIONS,
  signature: { type: "string" },
  verbose: { type: "boolean" },
} as const

/** `field=value` positionals → fields. The value may contain "=" (split at the first one); duplicates are refused. */
function parseFields(args: string[]): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const arg of args) {
    const eq = arg.indexOf("=")
    if (eq <= 0) {
      throw new CliUsageError(`expected field=value, got "${scrub(arg).slice(0, 40)}"`)
    }
    const name = arg.slice(0, eq)
    if (Object.prototype.hasOwnProperty.call(fields, name)) {
      throw new CliUsageError(`field ${name} is given twice`)
    }
    fields[name] = arg.slice(eq + 1)
  }
  return fields
}

/**
 * Reads the RSA key file and checks it with the client's own loader (gateway/oauth.ts `loadRsaPrivateKey`: PEM,
 * RSA, at least MIN_RSA_BITS bits), so the CLI refuses exactly what the client would. The path may be printed,
 * never the key.
 */
export async function requestCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS)
  if (values.help) {
    io.stdout.write(REQUEST_HELP)
    return EXIT.OK
  }
  const [opArg, ...fieldArgs] = positionals
  if (!opArg) throw new CliUsageError("missing OPERATION (try: medusa-payneteasy request --help)")
  const spec = findOperation(opArg)
  if (!spec) {
    throw new CliUsageError(`unknown operation "${scrub(opArg).slice(0, 40)}"; known operations: ${OPERATION_NAMES.join(", ")}`)
  }
  const opName = spec.name as OperationName
  const fields = parseFields(fieldArgs)

  const { config: credentials, keyPath, timeoutMs: timeout } = credentialsFrom(values, io.env)

  let method: SignatureMethod | undefined
  if (values.signature !== undefined) {
    const wanted = values.signature.toUpperCase()
    if (wanted !== "HMAC-SHA1" && wanted !== "RSA-SHA256") {
      throw new CliUsageError(`--signature must be HMAC-SHA1 or RSA-SHA256, got "${values.signature.slice(0, 20)}"`)
    }
    if (spec.auth.kind !== "oauth") {
      throw new CliUsageError(`--signature: ${opName} is authenticated by a control checksum, not OAuth`)
    }
    method = wanted
  }
  const effective = spec.auth.kind === "oauth" ? (method ?? spec.auth.method) : undefined
  let privateKeyPem: string | undefined
  if (effective === "RSA-SHA256") {
    if (!keyPath) throw new CliUsageError(`${opName} is signed with RSA-SHA256: pass --private-key <pem file> (or PAYNETEASY_PRIVATE_KEY)`)
    privateKeyPem = readPrivateKey(keyPath, `${opName} is signed with RSA-SHA256`)
  }

  const config: GatewayConfig = {
    ...credentials,
    ...(privateKeyPem ? { privateKeyPem } : {}),
    ...(method ? { signatureMethods: { [opName]: method } } : {}),
    ...(timeout ? { timeouts: { connectMs: timeout, headersMs: timeout, bodyMs: timeout } } : {}),
  }
  const secrets = secretsOf(config)

  let client: PaynetEasyClient
  try {
    client = new PaynetEasyClient(config)
  } catch (e) {
    if (e instanceof GatewayConfigError) throw new CliUsageError(scrub(e.message, secrets))
    throw e
  }
  if (values.verbose) {
    println(io.stderr, `> ${opName} ${spec.path} ${JSON.stringify(scrub(fields, secrets))}`)
  }
  try {
    const reply = await client.request(opName, fields)
    println(io.stdout, JSON.stringify(scrub(reply, secrets), jsonSafe, 2))
    return EXIT.OK
  } catch (e) {
    return reportGatewayError(e, io, secrets)
  } finally {
    await client.close()
  }
}

function jsonSafe(_key: string, value: unknown) {
  return typeof value === "bigint" ? value.toString() : value
}

/** One readable, scrubbed error on stderr; exit 2 if nothing was sent, 1 otherwise. */
function reportGatewayError(e: unknown, io: CliIO, secrets: string[]): number {
  if (e instanceof GatewayInputError || e instanceof GatewayConfigError) {
    const field = e instanceof GatewayInputError && e.field ? ` (field ${e.field})` : ""
    println(io.stderr, scrub(`error: refused, nothing was sent${field}: ${e.message}`, secrets))
    return EXIT.USAGE
  }
  if (e instanceof GatewayError) {
    const parts = [`error: ${e.name}: ${e.message}`]
    if (e.httpStatus !== undefined) parts.push(`HTTP ${e.httpStatus}`)
    if (e.code !== undefined) parts.push(`gateway error-code ${e.code}`)
    if (e.gatewayMessage) parts.push(`gateway says: ${e.gatewayMessage}`)
    println(io.stderr, scrub(parts.join("; "), secrets))
    if (e instanceof GatewayTransportError && e.indeterminate) {
      println(io.stderr, "note: the request may have reached the gateway; ask STATUS before sending it again")
    }
    return EXIT.FAILURE
  }
  println(io.stderr, scrub(`error: ${(e as Error)?.message ?? String(e)}`, secrets))
  return EXIT.FAILURE
}
