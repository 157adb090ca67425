/**
 * Recording the gateway messages of one event-loop turn together (per-turn.ts): the callback and return routes hand
 * their verified messages here, and every message recorded in the same turn goes into the callback log in one
 * statement (PaynetEasyModuleService.recordCallbacks, or recordSessionCallbacks for the callback route's common case)
 * instead of one statement, one pooled connection and one commit with its WAL flush each.
 *
 * Each caller still gets its own row and whether it created it, once the statement holding it has committed; the
 * route answers the gateway only after that. When the shared statement fails, each message is tried alone, so a
 * message the database refuses fails only itself (answered 500; the gateway re-sends it). Two copies of one callback
 * in the same turn are two inputs, and the statement gives both the one row, created by the first.
 */
import type PaynetEasyModuleService from "../../modules/payneteasy/service"
import type { NewCallback, RecordedCallback, SessionCallback } from "../../modules/payneteasy/service"
import { perTurn } from "./per-turn"

/**
 * `record` for all the messages of one turn in one call; when that fails, for each alone, so that a message the
 * database refuses (a NUL in a parameter's name, which the service cannot strip as it does in values) fails only itself.
 */
function inTurn<I, O>(record: (service: PaynetEasyModuleService, inputs: I[]) => Promise<O[]>) {
  return perTurn<PaynetEasyModuleService, I, O>(async (service, inputs) => {
    try {
      return await record(service, [...inputs])
    } catch (error) {
      if (inputs.length === 1) throw error
      return Promise.all(inputs.map((input) => record(service, [input]).then(([recorded]) => recorded, toError)))
    }
  })
}

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)))

/** Records one verified gateway message in the callback log, with the others of this turn. */
export const recordInTurn = inTurn((service, inputs: NewCallback[]) => service.recordCallbacks(inputs))

/**
 * Records one callback for a payment session with the others of this turn, if its session belongs to a registration
 * that verified it (PaynetEasyModuleService.recordSessionCallbacks: the check is part of the insert). Undefined when
 * nothing was recorded for it; the caller then takes the general path.
 */
export const recordForSessionInTurn = inTurn((service, inputs: SessionCallback[]) => service.recordSessionCallbacks(inputs))
