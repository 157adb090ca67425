/**
 * Recurring payments in the sandbox: the schedule a create-recurring-payment registers (period × interval, next
 * charge date) and "the next charge now", the steering call tests and the demo use instead of waiting a month.
 *
 * A charge is a new gateway order (kind "recurring-charge", transaction type sale) whose client_orderid is the
 * recurring payment's own client-orderid plus `-c<n>` (n = 1, 2, …), so STATUS can find it by client_orderid +
 * orderid like any other order. Its server callback goes to the server_callback_url given at creation and is signed
 * exactly like every other callback (control = sha1(status + orderid + client_orderid + control key)); it carries
 * `recurring-payment-id` besides. Outcomes: "approved", "declined", or "lost" (approved at the gateway, but the
 * callback never leaves: what a merchant sees when its endpoint was down for all retries).
 *
 * update-recurring-payment (api-cards.ts) may set a finish date (`finish-date`, YYYY-MM-DD) or a number of charges
 * (`max-repeats-number`): "upon reaching finish date, Recurring payment will go into stop status" (the vendor's update
 * page). A stopped schedule charges nothing, and "the next charge now" on it is refused; so is a next charge that
 * would fall after the finish date (the schedule stops instead).
 */
import { randomBytes } from "node:crypto"
import { nextChargeDate } from "../gateway/schedule"
import { DECLINE_REASONS } from "./cards"
import type { Engine } from "./engine"
import { initialTxn, type Order, type RecurringSchedule, type Store, type Txn } from "./state"

export const CHARGE_OUTCOMES = ["approved", "declined", "lost"] as const
export type ChargeOutcome = (typeof CHARGE_OUTCOMES)[number]

export function newSchedule(period: string, interval: number, start: Date = new Date()): RecurringSchedule {
  const p = period.toLowerCase().replace(/s$/, "") as RecurringSchedule["period"]
  return { period: p, interval, nextChargeAt: nextChargeDate(start, p, interval).toISOString(), chargeOrderids: [], state: "active" }
}

export function recurringOrder(store: Store, rpId: string): Order {
  const orderid = store.recurringPayments.get(String(rpId))
  const order = orderid === undefined ? undefined : store.orders.get(orderid)
  if (!order?.schedule) throw new Error(`unknown recurring-payment-id ${rpId}`)
  return order
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10)

/**
 * Puts the schedule into stop status when it has reached its finish date or its number of charges, or when its next
 * charge would fall after the finish date; returns the state.
 */
export function settleSchedule(schedule: RecurringSchedule, now: Date = new Date()): RecurringSchedule["state"] {
  if (schedule.state !== "active") return schedule.state
  const finished = schedule.finishDate !== undefined &&
    (isoDay(now) >= schedule.finishDate || isoDay(new Date(schedule.nextChargeAt)) > schedule.finishDate)
  const repeated = schedule.maxRepeats !== undefined && schedule.chargeOrderids.length >= schedule.maxRepeats
  if (finished || repeated) schedule.state = "stopped"
  return schedule.state
}

/** Runs the recurring payment's next charge now; returns the charge order. */
export function runNextCharge(store: Store, engine: Engine, rpId: string, outcome: ChargeOutcome): Order {
  const rp = recurringOrder(store, rpId)
  const schedule = rp.schedule as RecurringSchedule
  if (settleSchedule(schedule) !== "active") {
    throw new Error(`recurring payment ${rpId} is ${schedule.state}${schedule.finishDate ? ` (finish date ${schedule.finishDate})` : ""}: it makes no charge`)
  }
  if (!(CHARGE_OUTCOMES as readonly string[]).includes(outcome)) throw new Error(`outcome must be one of ${CHARGE_OUTCOMES.join(", ")}`)
  const n = schedule.chargeOrderids.length + 1
  const tx: Txn = {
    serial: store.newSerial(), type: "sale", operation: "CREATE_RP_V4", status: "processing", amountMinor: rp.amountMinor,
    createdAt: Date.now(),
  }
  const charge: Order = {
    ...rp,
    orderid: store.newOrderid(),
    kind: "recurring-charge",
    clientOrderId: `${rp.clientOrderId}-c${n}`,
    urls: outcome === "lost" ? {} : { serverCallback: rp.urls.serverCallback, notify: rp.urls.notify },
    pageToken: randomBytes(12).toString("hex"),
    txns: [tx],
    history: [],
    authorizedMinor: 0n, capturedMinor: 0n, returnedMinor: 0n, releasedMinor: 0n, chargedBackMinor: 0n,
    settled: false, voided: false,
    schedule: undefined,
    cardRefId: undefined,
    firstReply: {},
  }
  store.addOrder(charge)
  schedule.chargeOrderids.push(charge.orderid)
  schedule.nextChargeAt = nextChargeDate(new Date(schedule.nextChargeAt), schedule.period, schedule.interval).toISOString()
  engine.note(rp, `charge ${n} (order ${charge.orderid}) run now by steering: ${outcome}`)
  engine.note(charge, `charge ${n} of recurring payment ${rpId}${outcome === "lost" ? " (its callback will be lost)" : ""}`)
  engine.finalize(charge, initialTxn(charge), outcome === "declined" ? "declined" : "approved",
    outcome === "declined" ? DECLINE_REASONS["decline-funds"] : undefined)
  return charge
}
