/**
 * `medusa-payneteasy keys generate --out <dir>` — an RSA key pair for the RSA-SHA256 (OAuth) operations.
 * Private key: PKCS#8 PEM, file mode 0600; public key: SPKI PEM (what PaynetEasy support needs). The directory is
 * created with mode 0700 if it does not exist; existing key files are never overwritten.
 */
import { generateKeyPairSync } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { MIN_RSA_BITS } from "../../gateway"
import { intFlag, parse } from "../args"
import { CliUsageError, EXIT, println, type CliIO } from "../io"

export const PRIVATE_KEY_FILE = "payneteasy-private.pem"
export const PUBLIC_KEY_FILE = "payneteasy-public.pem"

export const KEYS_HELP = `Usage: medusa-payneteasy keys generate --out <dir> [--bits 2048|3072|4096]

Generates an RSA key pair for the RSA-SHA256 signed operations (v4 API):
  <dir>/${PRIVATE_KEY_FILE}  PKCS#8 PEM, mode 0600 — keep it secret; point the provider's privateKey option at it
  <dir>/${PUBLIC_KEY_FILE}   SPKI PEM — send this one to PaynetEasy
The directory is created (mode 0700) if missing. Existing files are not overwritten.

Options:
  --out <dir>     where to write the keys (required)
  --bits <n>      modulus length, at least ${MIN_RSA_BITS} (default 2048)
  -h, --help      show this help

Example:
  medusa-payneteasy keys generate --out ./secrets/payneteasy
`

export async function keysCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: "string" }, bits: { type: "string" } })
  const [sub, ...rest] = positionals
  if (values.help || sub === undefined) {
    ;(values.help ? io.stdout : io.stderr).write(KEYS_HELP)
    return values.help ? EXIT.OK : EXIT.USAGE
  }
  if (sub !== "generate") throw new CliUsageError(`unknown keys subcommand "${sub.slice(0, 20)}" (try: keys generate --help)`)
  if (rest.length) throw new CliUsageError(`unexpected argument "${rest[0].slice(0, 40)}"`)
  if (!values.out) throw new CliUsageError("missing --out <dir>")
  const bits = intFlag(values.bits, "--bits", { min: MIN_RSA_BITS, max: 16384 }) ?? 2048

  const dir = path.resolve(values.out)
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    fs.chmodSync(dir, 0o700) // mkdir's mode is filtered by the umask
  } else if (!fs.statSync(dir).isDirectory()) {
    throw new CliUsageError(`${dir} exists and is not a directory`)
  }
  const privatePath = path.join(dir, PRIVATE_KEY_FILE)
  const publicPath = path.join(dir, PUBLIC_KEY_FILE)
  for (const p of [privatePath, publicPath]) {
    if (fs.existsSync(p)) throw new CliUsageError(`${p} already exists; not overwriting a key`)
  }

  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: bits,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  })
  // "wx": fail if the file appeared meanwhile; mode applies at creation, chmod makes it exact despite the umask.
  fs.writeFileSync(privatePath, privateKey, { mode: 0o600, flag: "wx" })
  fs.chmodSync(privatePath, 0o600)
  fs.writeFileSync(publicPath, publicKey, { mode: 0o644, flag: "wx" })

  println(io.stdout, `wrote ${privatePath} (RSA ${bits} bits, PKCS#8, mode 0600 — keep it secret)`)
  println(io.stdout, `wrote ${publicPath} (SPKI public key — give this one to PaynetEasy)`)
  return EXIT.OK
}
