/**
 * Turning an HTTP reply into an operation result or the right error class.
 *
 * Mapping (seed "Errors"; gateway notes §2, §3, §10, §12):
 * - 401 / 403 → GatewayAuthError (a bad control or OAuth signature gives 403).
 * - 400, or a body with `type=validation-error` (the legacy format reports validation errors with HTTP 200)
 *   → GatewayValidationError.
 * - 5xx, or a body with `type=error` → GatewayServerError.
 * - other non-2xx → GatewayProtocolError; an unreadable 2xx body or one that does not match the operation's zod
 *   schema → GatewayProtocolError.
 * The gateway's `error-code` and `error-message` ride along on the error, scrubbed. A `status-response` with
 * `status=declined|error` is a transaction outcome, not an error: it is returned.
 */
import {
  GatewayAuthError,
  GatewayError,
  GatewayProtocolError,
  GatewayServerError,
  GatewayValidationError,
} from "./errors"
import { safeParseLoose } from "./loose-object"
import type { OperationSpec } from "./operations"
import { parseGatewayBody } from "./parse"

export interface RawReply {
  status: number
  body: string
}

const text = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === "string" ? v : String(v)

function tryParse(body: string): Record<string, unknown> | undefined {
  try {
    return parseGatewayBody(body)
  } catch {
    return undefined
  }
}

/** Returns the validated response record, or throws the mapped GatewayError. */
export function interpretReply(spec: OperationSpec, reply: RawReply, secrets: readonly string[]): Record<string, unknown> {
  const parsed = tryParse(reply.body)
  const type = text(parsed?.type)
  const status = reply.status
  if (parsed === undefined || status < 200 || status >= 300 || type === "validation-error" || type === "error") {
    throw refusal(spec, reply, parsed, type, secrets)
  }
  // `parsed` is this call's own: validated in place
  const result = safeParseLoose(spec.response, parsed, true)
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ")
    throw new GatewayProtocolError(
      `${spec.name}: reply does not match the expected response${type ? ` (type=${type})` : ""}: ${issues}`,
      errorDetails(spec, reply, parsed, secrets),
    )
  }
  return result.data
}

/** What every error of a reply carries; built only once the reply is known to be one (not on every call). */
function errorDetails(spec: OperationSpec, reply: RawReply, parsed: Record<string, unknown> | undefined, secrets: readonly string[]) {
  return { operation: spec.name, httpStatus: reply.status, code: text(parsed?.["error-code"]), gatewayMessage: text(parsed?.["error-message"]), secrets }
}

/** The error for a reply that is not a readable 2xx result: an HTTP error status, an error type, or no record at all. */
function refusal(spec: OperationSpec, reply: RawReply, parsed: Record<string, unknown> | undefined, type: string | undefined, secrets: readonly string[]): GatewayError {
  const operation = spec.name
  const details = errorDetails(spec, reply, parsed, secrets)
  const { code, gatewayMessage } = details
  const suffix = gatewayMessage ? `: ${gatewayMessage}` : ""
  const codePart = code ? ` (error-code ${code})` : ""

  if (reply.status === 401 || reply.status === 403) {
    return new GatewayAuthError(`${operation}: gateway refused authentication, HTTP ${reply.status}${codePart}${suffix}`, details)
  }
  if (reply.status === 400 || type === "validation-error") {
    return new GatewayValidationError(`${operation}: gateway validation error, HTTP ${reply.status}${codePart}${suffix}`, details)
  }
  if (reply.status >= 500 || type === "error") {
    return new GatewayServerError(`${operation}: gateway error, HTTP ${reply.status}${codePart}${suffix}`, details)
  }
  if (reply.status < 200 || reply.status >= 300) {
    return new GatewayProtocolError(`${operation}: unexpected HTTP ${reply.status}${codePart}${suffix}`, details)
  }
  // Say why, without quoting the body (it could echo request data).
  let reason = "unreadable reply"
  try {
    parseGatewayBody(reply.body)
  } catch (e) {
    if (e instanceof GatewayError) reason = e.message
  }
  return new GatewayProtocolError(`${operation}: ${reason}`, details)
}
