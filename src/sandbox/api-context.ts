/**
 * What every API handler receives, and how it refuses. A handler throws `Refusal` for anything the gateway would
 * answer with a validation error; the dispatcher turns it into the right format (JSON 400 / legacy 200).
 */
import type { OperationName, OperationSpec } from "../gateway/operations"
import type { Engine } from "./engine"
import type { FaultBook } from "./faults"
import type { Mode, ReplyFields } from "./http-io"
import type { ResolvedOptions, SandboxMerchant } from "./options"
import type { Store } from "./state"

export interface ApiRequest {
  op: OperationSpec & { name: OperationName }
  /** "id:1111" or "group:2222". */
  endpointKey: string
  /** The id from the URL. */
  endpointId: string
  fields: Record<string, string>
  pairs: Array<[string, string]>
  mode: Mode
  /** The absolute URL as the client addressed it (OAuth base string). */
  url: string
  authorization: string | undefined
}

export interface Ctx {
  store: Store
  engine: Engine
  faults: FaultBook
  opts: ResolvedOptions
  /** Public origin of this sandbox, e.g. http://127.0.0.1:4010 (for page URLs). */
  origin: string
  merchant: SandboxMerchant
  req: ApiRequest
  /** Process-local secret keying request fingerprints (idempotency). */
  fingerprintKey: Buffer
  /** For an operation addressed to a manager login (get-balance by manager): the merchants that manager sees. */
  managed?: readonly SandboxMerchant[]
}

export class Refusal extends Error {
  constructor(
    message: string,
    readonly field?: string,
    readonly code = "1",
  ) {
    super(message)
  }
}

export type ApiReply = { httpStatus: number; fields: ReplyFields }
