/**
 * Wire names are written once (issue 33): only src/gateway and src/sandbox spell the gateway's field names.
 *
 * The names are taken from the operations table itself (every operation's request fields, control terms and the keys
 * of its reply schema), never from a hand list. Every TypeScript file under src/ outside gateway/ and sandbox/ is parsed
 * (comments are not code and are not read) and each string literal or identifier equal to a wire name is an offender,
 * unless the allow-list below says why that spelling is not the gateway's. A second check: no code outside src/gateway
 * hands an inline object of fields to the client (`.request(op, { … })`, `sendMoneyRequest(client, { fields: { … } })`): every
 * operation is built by its typed builder in src/gateway/requests.ts (three-ds-upload.ts, recurring-update.ts,
 * callback.ts for the 3DS uploads, the schedule stop and callbacks) and read through src/gateway/replies.ts.
 * Test files (__tests__) are not scanned: they stand in for the gateway and check what goes over the wire.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"
import { errorResponse, OPERATIONS } from "../operations"

const SRC = join(__dirname, "..", "..")

/** Every field name the operations table names, in requests, control strings and replies. */
function wireNamesFromTable(): Set<string> {
  const names = new Set<string>()
  const shapeKeys = (schema: unknown) => Object.keys((schema as { shape?: Record<string, unknown> }).shape ?? {})
  for (const op of Object.values(OPERATIONS)) {
    for (const f of [...op.required, ...op.optional]) names.add(f)
    for (const t of ("control" in op ? op.control : undefined) ?? []) if (t.kind === "field") names.add(t.name)
    for (const k of shapeKeys(op.response)) names.add(k)
  }
  for (const k of shapeKeys(errorResponse)) names.add(k)
  return names
}

/**
 * Spellings the scan does not count, each with the reason it is not (only) the gateway's. Plain words first: the
 * gateway borrows them from English and so does every domain type (Medusa's amount and currency, an address's city,
 * a schedule's period and interval); a request built by hand with them is still caught by its other fields and by the
 * inline-fields check below.
 */
const ALLOWED: Record<string, string> = {
  amount: "a plain word: Medusa's and every domain type's amount",
  currency: "a plain word: money's currency everywhere in the domain",
  status: "a plain word: the status of our own records, Medusa's payment status",
  type: "a plain word: TypeScript's and every discriminated union's `type`",
  state: "a plain word: React state, our records' state",
  city: "a plain word: an address's city (Medusa's AddressDTO)",
  phone: "a plain word: an address's phone (Medusa's AddressDTO)",
  email: "a plain word: a customer's email (Medusa's CustomerDTO)",
  country: "a plain word: a country in the domain",
  period: "a plain word: a subscription schedule's period (our own schedule type)",
  interval: "a plain word: a subscription schedule's interval and timers' setInterval",
  html: "a plain word: the payer page's HTML",
  bin: "a plain word: a saved card's BIN as our own record stores it",
  destination: "a plain word: a payout's destination (our own model)",
  purpose: "a plain word: a payout's purpose (our own model)",
  comment: "a plain word: an admin's comment",
  login: "a plain word: the merchant login option",
  first_name: "Medusa's own address and customer field (AddressDTO.first_name)",
  last_name: "Medusa's own address and customer field (AddressDTO.last_name)",
}
/**
 * Our own tables' columns (src/modules/payneteasy/models) and the admin API that shows them keep these spellings: they
 * name what we stored, and renaming them is a migration of its own (left for later). Allowed as a row's property (an
 * identifier) anywhere, and quoted only where columns are named: a type (`Pick<Row, "orderid">`), the module itself
 * (models, indexes, SQL), the admin's labels and the files in COLUMN_LISTS. A quoted spelling anywhere else (a callback
 * param read by hand, a CLI restating the callback) is counted; a request built by hand is caught by the inline-fields
 * check below.
 */
const OWN_COLUMNS: Record<string, string> = {
  client_orderid: "column of callback_log, card_charge, payout, recurring_charge, status_check (models/*.ts)",
  orderid: "column of callback_log and status_check (models/*.ts)",
}
const COLUMN_PLACES = ["modules/payneteasy/", "admin/"]
/** Files that select our columns by name outside the module. */
const COLUMN_LISTS = ["core/recurring/reconcile-charges.ts"]

/**
 * Field names of this plugin's own HTTP API and session data that storefronts and the admin already send, documented
 * and asserted by the integration tests; renaming them would break their callers. Allowed only in the files that
 * define or read that API, each a path under src/.
 */
const OUR_API: Array<{ names: string[]; files: string[]; reason: string }> = [
  {
    names: ["cvv2"],
    files: ["api/store/payneteasy/validators.ts", "api/store/payneteasy/payment-sessions/[id]/saved-card/route.ts", "storefront/checkout.ts", "api/store/payneteasy/payment-collections/[id]/pay/route.ts", "storefront/payment-link.ts"],
    reason: "the store API's saved-card payment body `{ cvv2? }` (docs/storefront.md), also a payment link's pay body (and the kit that sends it)",
  },
  {
    names: ["redirect_url"],
    files: ["api/store/payneteasy/cards/route.ts", "api/store/payneteasy/payment-collections/[id]/pay/route.ts", "core/payment-links/link-view.ts", "storefront/payment-link.ts"],
    reason: "the store API's add-card and payment-link answers `{ redirect_url }` (saved-cards.spec.ts, payment-links.spec.ts), read by the kit's payment-link core",
  },
  {
    names: ["address1", "zip_code"],
    files: ["core/checkout/payer.ts"],
    reason: "keys of the storefront's `data.payer` (payerSchema, docs/storefront.md); the request uses the builder",
  },
  {
    names: ["credit_card_number", "cvv2"],
    files: ["core/checkout/payer.ts"],
    reason: "CARD_LIKE_KEYS: keys under which a storefront might put card data, cleared from session data",
  },
  {
    names: ["account_number", "bank_name", "bank_branch", "wallet_id"],
    files: ["core/payouts/payout-request.ts", "admin/routes/payouts/create-payout-form.tsx", "admin/lib/payout-form-errors.ts", "core/payouts/destination.ts"],
    reason: "the admin payout API's destination fields (its validators, the admin form, and the mapping to the builder)",
  },
]

const allowedHere = (name: string, file: string, node: ts.Node) =>
  name in ALLOWED ||
  (name in OWN_COLUMNS &&
    (ts.isIdentifier(node) ||
      ts.isLiteralTypeNode(node.parent) ||
      COLUMN_PLACES.some((p) => file.startsWith(p)) ||
      COLUMN_LISTS.includes(file))) ||
  OUR_API.some((a) => a.names.includes(name) && a.files.includes(file))

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) {
      if (p === join(SRC, "gateway") || p === join(SRC, "sandbox") || e.name === "__tests__" || e.name === "node_modules") continue
      sourceFiles(p, out)
    } else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p)
  }
  return out
}

type Hit = { file: string; line: number; name: string }

function scan(file: string, wire: Set<string>): { names: Hit[]; inline: Hit[] } {
  const text = readFileSync(file, "utf8")
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const rel = relative(SRC, file)
  const names: Hit[] = []
  const inline: Hit[] = []
  const at = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) return
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
      if (wire.has(n.text) && !allowedHere(n.text, rel, n)) names.push({ file: rel, line: at(n), name: `"${n.text}"` })
    } else if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) {
      const t = n.text
      if (wire.has(t) && !allowedHere(t, rel, n)) names.push({ file: rel, line: at(n), name: t })
    } else if (ts.isCallExpression(n)) {
      const callee = n.expression
      const fieldsArg =
        ts.isPropertyAccessExpression(callee) && callee.name.text === "request" ? n.arguments[1]
        : ts.isIdentifier(callee) && callee.text === "sendMoneyRequest" && n.arguments[1] && ts.isObjectLiteralExpression(n.arguments[1])
          ? (n.arguments[1].properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(sf) === "fields") as ts.PropertyAssignment | undefined)?.initializer
        : undefined
      if (fieldsArg && ts.isObjectLiteralExpression(fieldsArg)) {
        inline.push({ file: rel, line: at(n), name: callee.getText(sf) })
      }
    }
    ts.forEachChild(n, visit)
  }
  visit(sf)
  return { names, inline }
}

const list = (hits: Hit[]) => hits.map((h) => `${h.file}:${h.line} ${h.name}`).join("\n")

describe("gateway wire names outside src/gateway and src/sandbox", () => {
  const wire = wireNamesFromTable()
  const results = sourceFiles(SRC).map((f) => scan(f, wire))

  it("reads its names from the operations table", () => {
    // a few names every reader of the spec knows, to prove the table was read (not the list the scan uses)
    for (const n of ["client_orderid", "orderid", "cvv2", "serial-number", "paynet-order-id", "recurring-payment-id", "cRes"]) {
      expect(wire.has(n)).toBe(true)
    }
    // every allowed name is a wire name: an entry that no longer is one is stale
    for (const n of [...Object.keys(ALLOWED), ...Object.keys(OWN_COLUMNS), ...OUR_API.flatMap((a) => a.names)]) expect(wire.has(n)).toBe(true)
    // every file an allowance names exists
    for (const f of [...OUR_API.flatMap((a) => a.files), ...COLUMN_LISTS, ...COLUMN_PLACES]) expect(existsSync(join(SRC, f))).toBe(true)
  })

  it("no file outside src/gateway and src/sandbox spells a gateway field name", () => {
    const hits = results.flatMap((r) => r.names)
    const files = new Set(hits.map((h) => h.file))
    expect(`${files.size} files, ${hits.length} occurrences\n${list(hits)}`).toBe("0 files, 0 occurrences\n")
  })

  it("no code outside src/gateway hands the client an inline object of wire fields", () => {
    const hits = results.flatMap((r) => r.inline)
    expect(`${hits.length} calls\n${list(hits)}`).toBe("0 calls\n")
  })
})
