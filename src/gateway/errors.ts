/**
 * The gateway client's error classes.
 *
 * Callers branch on the class: input refused before sending, configuration, the gateway's own verdict
 * (validation / server / auth), an unreadable reply, or a transport failure. `GatewayTransportError.indeterminate`
 * is the one that matters for money: true means the request may have reached the gateway, so the caller must ask
 * STATUS before sending it again (never re-send a sale or capture blindly).
 *
 * Messages are passed through `scrub` on construction, so no error carries a secret, a card number or a CVV.
 */
import { scrub } from "./scrub"

export interface GatewayErrorDetails {
  operation?: string
  httpStatus?: number
  code?: string
  gatewayMessage?: string
  /** Literal secrets to redact from the message (the client passes its control key). Not stored. */
  secrets?: readonly string[]
  cause?: unknown
}

export class GatewayError extends Error {
  operation?: string
  httpStatus?: number
  /** The gateway's `error-code`, as a string. */
  code?: string
  /** The gateway's `error-message`, scrubbed. */
  gatewayMessage?: string

  constructor(message: string, details: GatewayErrorDetails = {}) {
    const secrets = details.secrets ?? []
    super(scrub(message, secrets))
    this.name = new.target.name
    this.operation = details.operation
    this.httpStatus = details.httpStatus
    this.code = details.code
    this.gatewayMessage = details.gatewayMessage === undefined ? undefined : scrub(details.gatewayMessage, secrets)
    if (details.cause !== undefined) {
      // Keep only a scrubbed summary of the cause: a raw undici error can carry request details.
      Object.defineProperty(this, "cause", { value: scrub(details.cause, secrets), enumerable: false })
    }
  }
}

/** The configuration is incomplete or invalid (constructor, or a request needing what the config lacks). */
export class GatewayConfigError extends GatewayError {}

/** A request refused before sending; `field` names the offending request field when there is one. */
export class GatewayInputError extends GatewayError {
  field?: string
  constructor(message: string, details: GatewayErrorDetails & { field?: string } = {}) {
    super(message, details)
    this.field = details.field
  }
}

/** HTTP 400, or a reply with `type=validation-error`. */
export class GatewayValidationError extends GatewayError {}

/** HTTP 5xx, or a reply with `type=error`. */
export class GatewayServerError extends GatewayError {}

/** HTTP 401 / 403: bad control or OAuth signature, unknown login or endpoint. */
export class GatewayAuthError extends GatewayError {}

/** A reply the client cannot read: not JSON / form-encoded, or not the operation's response shape. */
export class GatewayProtocolError extends GatewayError {}

/**
 * Network failure or timeout. `indeterminate` is true when the request may have reached the gateway (anything
 * after the connection was established); false when it certainly was not sent (connect refused / timed out).
 */
export class GatewayTransportError extends GatewayError {
  indeterminate: boolean
  constructor(message: string, details: GatewayErrorDetails & { indeterminate: boolean }) {
    super(message, details)
    this.indeterminate = details.indeterminate
  }
}
