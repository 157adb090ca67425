/**
 * Recording the gateway messages of one event-loop turn together (per-turn.ts): the callback and return routes hand
 * their verified messages here, and every message recorded in the same turn goes into the callback log in one
 * statement (PaynetEasyModuleService.recordCallbacks) instead of one statement, one pooled connection and one commit
 * with its WAL flush each.
 *
 * Each caller still gets its own row and whether it created it, once the statement holding it has committed; the
 * route answers the gateway only after that. A failed statement fails every message in it: each is answered 500 and
 * re-sent by the gateway, and none of them was recorded. Two copies of one callback in the same turn are two inputs,
 * and the statement gives both the one row, created by the first.
 */
import type PaynetEasyModuleService from "../modules/payneteasy/service"
import type { NewCallback, RecordedCallback } from "../modules/payneteasy/service"
import { perTurn } from "./per-turn"

/** Records one verified gateway message in the callback log, with the others of this turn. */
export const recordInTurn = perTurn<PaynetEasyModuleService, NewCallback, RecordedCallback>((service, inputs) =>
  service.recordCallbacks([...inputs])
)
