/**
 * PaynetEasyClient: one merchant account, one keep-alive connection pool, one method per call.
 *
 * `request(op, fields)` validates and signs (request.ts), POSTs, and maps the reply (response.ts).
 *
 * Re-sending rule (ARCHITECTURE reliability rules; gateway notes §13): a money-moving operation
 * (table movesMoney=true) is sent once. If it times out or the reply is lost after the connection was made, the
 * client throws GatewayTransportError{indeterminate:true} and the caller must ask STATUS before any re-send.
 * Read-only operations are retried on transient failures (transport errors, HTTP 5xx) up to `readRetries`
 * times with a short backoff, each attempt freshly signed (new OAuth nonce and timestamp).
 *
 * `config.observer` (observe.ts) sees every request: its operation, endpoint and ids, each attempt, and the reply's
 * facts or the error; tracing and metrics plug in there (core/connection/gateway-telemetry.ts). Without one, or when it
 * has nothing to record, a request costs what it did before.
 */
import { resolveConfig, type GatewayConfig, type ResolvedConfig } from "./config"
import { GatewayError, GatewayInputError, GatewayServerError, GatewayTransportError } from "./errors"
import { oauthNonce } from "./oauth"
import { replyFacts, requestInfo, type GatewayObserver, type GatewayRequestInfo, type GatewayRequestObservation } from "./observe"
import { OPERATIONS, type OperationName, type OperationResponse, type OperationSpec } from "./operations"
import { prepareRequest, type RequestFields } from "./request"
import { interpretReply } from "./response"
import { HttpTransport } from "./transport"
import { setTimeout as sleep } from "node:timers/promises"

/** Backoff before retry n (1-based) of a read-only operation. */
const backoffMs = (attempt: number): number => 100 * 2 ** (attempt - 1) + Math.floor(Math.random() * 50)


/** Whether a failed read-only attempt is worth repeating. */
function isTransient(error: unknown): boolean {
  if (error instanceof GatewayTransportError) return true
  return error instanceof GatewayServerError && (error.httpStatus ?? 0) >= 500
}

export class PaynetEasyClient {
  private readonly config: ResolvedConfig
  private readonly transport: HttpTransport
  private readonly secrets: readonly string[]
  private readonly observer?: GatewayObserver

  /** Throws GatewayConfigError on an incomplete or invalid configuration. */
  constructor(config: GatewayConfig) {
    this.config = resolveConfig(config)
    this.secrets = [this.config.controlKey, ...(config.privateKeyPem ? [config.privateKeyPem] : [])]
    this.transport = new HttpTransport(this.config.baseUrl, this.config.timeouts)
    this.observer = config.observer
  }

  /**
   * Sends one operation. `fields` use the API's own names; `amount` is a major-unit decimal string ("10.42").
   * Resolves with the reply validated by the operation's zod schema (unknown keys kept); rejects with a
   * GatewayError subclass.
   */
  async request<N extends OperationName>(op: N, fields: RequestFields): Promise<OperationResponse<N>> {
    const spec = (OPERATIONS as Record<string, OperationSpec>)[op]
    if (!spec) throw new GatewayInputError(`unknown operation "${String(op).slice(0, 40)}"`)
    const observation = this.observer?.request(this.describe(spec, fields))
    const attempts = spec.movesMoney ? 1 : 1 + this.config.readRetries
    let lastError: unknown
    let attempt = 1
    for (; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(backoffMs(attempt - 1))
      try {
        if (!observation) return (await this.once(op, spec, fields)) as OperationResponse<N>
        return (await this.observed(observation, attempt, op, spec, fields)) as OperationResponse<N>
      } catch (error) {
        lastError = error
        if (spec.movesMoney || !isTransient(error)) break
      }
    }
    const error = lastError instanceof GatewayError
      ? lastError
      : new GatewayError(`${spec.name}: unexpected failure`, { operation: spec.name, secrets: this.secrets, cause: lastError })
    observation?.end({ attempts: Math.min(attempt, attempts), error })
    throw error
  }

  /** One attempt through the observer, which is told the reply's facts when it is the answer. */
  private async observed(observation: GatewayRequestObservation, attempt: number, op: OperationName, spec: OperationSpec, fields: RequestFields) {
    const seen: { httpStatus?: number } = {}
    const reply = await observation.attempt(attempt, () => this.once(op, spec, fields, seen))
    observation.end({ attempts: attempt, reply: replyFacts(reply, seen.httpStatus) })
    return reply
  }

  /** What an observer is told about a request: the operation, where it goes and the ids it names (observe.ts). */
  private describe(spec: OperationSpec, fields: RequestFields): GatewayRequestInfo {
    const e = this.config.endpoint
    const endpoint = spec.target === "login" ? "login" : e ? (e.kind === "group" ? `group/${e.id}` : e.id) : ""
    const target = spec.target === "login" ? encodeURIComponent(this.config.login) : endpoint
    return requestInfo(spec, fields, `${this.config.baseUrl}${spec.path}${target ? `/${target}` : ""}`, endpoint)
  }

  private async once(op: OperationName, spec: OperationSpec, fields: RequestFields, seen?: { httpStatus?: number }): Promise<Record<string, unknown>> {
    const prepared = prepareRequest(op, spec, fields, this.config, {
      // Only OAuth-signed operations use a nonce; control-signed ones (most) need no random bytes.
      nonce: spec.auth.kind === "control" ? "" : oauthNonce(),
      timestamp: Math.floor(Date.now() / 1000),
    })
    const reply = await this.transport.post(prepared.path, prepared.headers, prepared.body, {
      operation: spec.name,
      secrets: this.secrets,
    })
    if (seen) seen.httpStatus = reply.status
    return interpretReply(spec, reply, this.secrets)
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.transport.close()
  }
}
