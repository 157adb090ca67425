/**
 * Building one gateway request from an operation and its fields, before anything is sent.
 *
 * Checks, in order, each refusal naming the field (GatewayInputError) or the missing configuration
 * (GatewayConfigError):
 * - every value is a string or a finite number, and is trimmed (the gateway trims before hashing, notes §0.7);
 *   `control` and oauth_* are the client's to compute and are refused as input;
 * - `login` is filled in from the config where the operation lists it;
 * - the operation's required fields are present and non-empty, and exactly one field of each `oneOf` group;
 * - `currency` is a known ISO 4217 code (sent upper-case); `amount` is a plain decimal that fits the currency's
 *   exponent and is sent normalized to exactly that many decimals ("10.4" EUR → "10.40");
 * - the config has an endpoint, and a private key when the operation is signed RSA-SHA256.
 * Fields the table does not name pass through unchanged apart from trimming.
 *
 * Then it computes the `control` field or the OAuth Authorization header. Pure apart from signing; the nonce and
 * timestamp are inputs.
 */
import type { ResolvedConfig } from "./config"
import { computeControl } from "./control"
import { formEncode } from "./encode"
import { GatewayConfigError, GatewayInputError } from "./errors"
import { currencyExponent, normalizeAmount } from "./money"
import { oauthSign } from "./oauth"
import type { OperationName, OperationSpec, SignatureMethod } from "./operations"

export const ACCEPT = "application/vnd.pay+json"
export const CONTENT_TYPE = "application/x-www-form-urlencoded"

export type RequestFields = Record<string, string | number | undefined>

export interface PreparedRequest {
  /** Path below the base URL: `/api/v2/sale/1111` or `/api/v2/sale/group/2222`. */
  path: string
  url: string
  headers: Record<string, string>
  /** The fields as sent (trimmed, login added, amount normalized, control added). */
  fields: Array<[string, string]>
  body: string
  auth: "control" | SignatureMethod
}

function fieldValue(name: string, value: unknown): string {
  if (typeof value === "string") return value.trim()
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new GatewayInputError(`${name} must be a finite number`, { field: name })
    return String(value)
  }
  if (typeof value === "bigint") return value.toString()
  throw new GatewayInputError(`${name} must be a string or a number`, { field: name })
}

const listsLoginOf = new WeakMap<OperationSpec, boolean>()

/** Whether the operation takes `login` (a field, or a term of its control); read once per operation. */
function listsLogin(spec: OperationSpec): boolean {
  let lists = listsLoginOf.get(spec)
  if (lists === undefined) {
    lists = spec.required.includes("login") || spec.optional.includes("login") || !!spec.control?.some((t) => t.kind === "login")
    listsLoginOf.set(spec, lists)
  }
  return lists
}

/** What follows the operation's path: the endpoint (`1111`, `group/2222`), or the login for a `target: "login"` row. */
export function targetOf(spec: OperationSpec, config: Pick<ResolvedConfig, "endpoint" | "login">): string {
  if (spec.target === "login") return encodeURIComponent(config.login)
  if (!config.endpoint) throw new GatewayConfigError("endpointId or endpointGroupId is required", { operation: spec.name })
  return `${config.endpoint.kind === "group" ? "group/" : ""}${encodeURIComponent(config.endpoint.id)}`
}

export function prepareRequest(
  opName: OperationName,
  spec: OperationSpec,
  input: RequestFields,
  config: ResolvedConfig,
  oauth: { nonce: string; timestamp: number },
): PreparedRequest {
  const fields = new Map<string, string>()
  // Object.keys, not Object.entries: the same own keys in the same order, without a [name, value] array per field.
  const names = input ? Object.keys(input) : []
  for (let i = 0; i < names.length; i++) {
    const name = names[i]
    const value = input[name]
    if (value === undefined) continue
    if (name === "control" || name.startsWith("oauth_")) {
      throw new GatewayInputError(`${name} is computed by the client and must not be passed in`, { field: name })
    }
    fields.set(name, fieldValue(name, value))
  }

  if (listsLogin(spec)) {
    const given = fields.get("login")
    if (given !== undefined && given !== "" && given !== config.login) {
      throw new GatewayInputError("login differs from the configured merchant login", { field: "login" })
    }
    fields.set("login", config.login)
  }

  for (const name of spec.required) {
    const value = fields.get(name)
    if (value === undefined || value === "") {
      throw new GatewayInputError(`${spec.name}: required field ${name} is missing`, { field: name, operation: spec.name })
    }
  }

  for (const group of spec.oneOf ?? []) {
    const sent = group.filter((name) => (fields.get(name) ?? "") !== "")
    if (sent.length !== 1) {
      throw new GatewayInputError(
        `${spec.name}: send exactly one of ${group.join(", ")}${sent.length ? ` (got ${sent.join(" and ")})` : ""}`,
        { field: sent[1] ?? group[0], operation: spec.name },
      )
    }
  }

  const currency = fields.get("currency")
  if (currency !== undefined && currency !== "") {
    currencyExponent(currency)
    fields.set("currency", currency.toUpperCase())
  }
  const amount = fields.get("amount")
  if (amount !== undefined) {
    const cur = fields.get("currency")
    if (!cur) throw new GatewayInputError(`${spec.name}: currency is required with amount`, { field: "currency", operation: spec.name })
    fields.set("amount", normalizeAmount(amount, cur))
  }

  const path = `${spec.path}/${targetOf(spec, config)}`
  const url = config.baseUrl + path
  const headers: Record<string, string> = { accept: ACCEPT, "content-type": CONTENT_TYPE }

  let auth: PreparedRequest["auth"]
  if (spec.auth.kind === "control") {
    auth = "control"
    // The Map itself, not Object.fromEntries(fields): building that record took a sixth of this function's time.
    const control = computeControl(spec.control ?? [], fields, {
      endpoint: config.endpoint!.id,
      login: config.login,
      controlKey: config.controlKey,
    })
    fields.set("control", control)
  } else {
    const method = config.signatureMethods[opName] ?? spec.auth.method
    auth = method
    if (method === "RSA-SHA256" && !config.privateKey) {
      throw new GatewayConfigError(`${spec.name} is signed RSA-SHA256: privateKeyPem is required`, { operation: spec.name })
    }
    const signed = oauthSign({
      method,
      url,
      params: [...fields],
      consumerKey: config.login,
      controlKey: config.controlKey,
      privateKey: config.privateKey,
      nonce: oauth.nonce,
      timestamp: oauth.timestamp,
    })
    headers.authorization = signed.authorization
  }

  const sent: Array<[string, string]> = []
  fields.forEach((value, name) => {
    sent.push([name, value])
  })
  return { path, url, headers, fields: sent, body: formEncode(sent), auth }
}
