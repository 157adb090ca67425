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
  const operation = spec.name
  const parsed = tryParse(reply.body)
  const type = text(parsed?.type)
  const code = text(parsed?.["error-code"])
  const gatewayMessage = text(parsed?.["error-message"])
  const details = { operation, httpStatus: reply.status, code, gatewayMessage, secrets }
  const suffix = gatewayMessage ? `: ${gatewayMessage}` : ""
  const codePart = code ? ` (error-code ${code})` : ""

  if (reply.status === 401 || reply.status === 403) {
    throw new GatewayAuthError(`${operation}: gateway refused authentication, HTTP ${reply.status}${codePart}${suffix}`, details)
  }
  if (reply.status === 400 || type === "validation-error") {
    throw new GatewayValidationError(`${operation}: gateway validation error, HTTP ${reply.status}${codePart}${suffix}`, details)
  }
  if (reply.status >= 500 || type === "error") {
    throw new GatewayServerError(`${operation}: gateway error, HTTP ${reply.status}${codePart}${suffix}`, details)
  }
  if (reply.status < 200 || reply.status >= 300) {
    throw new GatewayProtocolError(`${operation}: unexpected HTTP ${reply.status}${codePart}${suffix}`, details)
  }
  if (!parsed) {
    // Say why, without quoting the body (it could echo request data).
    let reason = "unreadable reply"
    try {
      parseGatewayBody(reply.body)
    } catch (e) {
      if (e instanceof GatewayError) reason = e.message
    }
    throw new GatewayProtocolError(`${operation}: ${reason}`, details)
  }
  // `parsed` is this call's own: validated in place
  const result = safeParseLoose(spec.response, parsed, true)
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ")
    throw new GatewayProtocolError(
      `${operation}: reply does not match the expected response${type ? ` (type=${type})` : ""}: ${issues}`,
      details,
    )
  }
  return result.data
}
