/**
 * Recording the gateway messages of one event-loop turn together (per-turn.ts): the callback and return routes hand
 * their verified messages here, and every message recorded in the same turn goes into the callback log in one
 * statement (PaynetEasyModuleService.recordCallbacks) instead of one statement, one pooled connection and one commit
 * with its WAL flush each.
 *
 * Each caller still gets its own row and whether it created it, once the statement holding it has committed; the
 * route answers the gateway only after that. When the shared statement fails, each message is tried alone, so a
 * message the database refuses fails only itself (answered 500; the gateway re-sends it). Two copies of one callback
 * in the same turn are two inputs, and the statement gives both the one row, created by the first.
 */
import type PaynetEasyModuleService from "../modules/payneteasy/service"
import type { NewCallback, RecordedCallback } from "../modules/payneteasy/service"
import { perTurn } from "./per-turn"

/** Records one verified gateway message in the callback log, with the others of this turn. */
export const recordInTurn = perTurn<PaynetEasyModuleService, NewCallback, RecordedCallback>(async (service, inputs) => {
  try {
    return await service.recordCallbacks([...inputs])
  } catch (error) {
    if (inputs.length === 1) throw error
    // One message the database refuses (a NUL in a parameter's name, which the service cannot strip as it does in
    // values) must not fail the others of its turn: each is recorded alone, and only the one that fails again fails.
    return Promise.all(inputs.map((input) => service.recordCallbacks([input]).then(([recorded]) => recorded, toError)))
  }
})

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)))
