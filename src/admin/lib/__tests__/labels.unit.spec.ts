/**
 * The one status label table (lib/labels.ts) and the translations (i18n/): every status the server can return — taken
 * from the server's own value lists, not copied — has a badge colour Medusa uses and a label in every language that
 * has a file (the files' keys, plural forms and placeholders: i18n/__tests__/languages.unit.spec.ts).
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { GATEWAY_STATUSES } from "../../../gateway/operations"
import { DESTINATION_TYPES, PAYOUT_METHODS, PAYOUT_STATUSES } from "../../../modules/payneteasy/models/payout"
import { CALLBACK_OUTCOMES, CALLBACK_SOURCES } from "../../../modules/payneteasy/models/callback-log"
import { RECONCILIATION_STATES } from "../../../modules/payneteasy/models/reconciliation"
import { GATEWAY_CANCEL_STATES, RECURRING_STATUSES } from "../../../modules/payneteasy/models/recurring-payment"
import { REBILL_STATES } from "../../../modules/payneteasy/models/rebill"
import { ACTIVITY_KINDS, ACTIVITY_ORIGINS, PAYMENT_KINDS, THREE_DS_STATES } from "../../../core/dashboard/order-money"
import { ATTENTION_KINDS } from "../../../core/dashboard/attention-item"
import { languagesOnDisk } from "../../i18n/__tests__/language-files"
import { STATUS_COLORS, statusLabel, type StatusGroup } from "../labels"

const SERVER_VALUES: Record<StatusGroup, readonly string[]> = {
  gateway: GATEWAY_STATUSES,
  session: Object.values(PaymentSessionStatus),
  payout: PAYOUT_STATUSES,
  payoutMethod: PAYOUT_METHODS,
  destination: DESTINATION_TYPES,
  callbackSource: CALLBACK_SOURCES,
  callbackOutcome: CALLBACK_OUTCOMES,
  reconciliation: RECONCILIATION_STATES,
  recurring: RECURRING_STATUSES,
  recurringCancel: GATEWAY_CANCEL_STATES,
  recurringCharge: [...GATEWAY_STATUSES, "unmatched"],
  rebill: REBILL_STATES,
  paymentKind: PAYMENT_KINDS,
  threeDs: THREE_DS_STATES,
  activity: ACTIVITY_KINDS,
  origin: ACTIVITY_ORIGINS,
  attentionKind: ATTENTION_KINDS,
}

const MEDUSA_BADGE_COLORS = ["green", "red", "orange", "blue", "grey", "purple"]

const lookup = (obj: unknown, key: string): unknown => key.split(".").reduce<any>((o, k) => (o == null ? undefined : o[k]), obj)

function leafKeys(obj: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (typeof v === "string" ? [`${prefix}${k}`] : leafKeys(v as Record<string, unknown>, `${prefix}${k}.`)))
}

describe("status label table", () => {
  it("has exactly the server's values for every group, each with a Medusa badge colour", () => {
    expect(Object.keys(STATUS_COLORS).sort()).toEqual(Object.keys(SERVER_VALUES).sort())
    for (const [group, values] of Object.entries(SERVER_VALUES)) {
      expect([group, Object.keys(STATUS_COLORS[group as StatusGroup]).sort()]).toEqual([group, [...values].sort()])
      for (const v of values) expect(MEDUSA_BADGE_COLORS).toContain(statusLabel(group as StatusGroup, v).color)
    }
  })

  it("every server value has a non-empty label in every language, not the raw value", () => {
    const missing: string[] = []
    for (const [lang, words] of Object.entries(languagesOnDisk())) {
      for (const [group, values] of Object.entries(SERVER_VALUES)) {
        for (const v of values) {
          const { key, known } = statusLabel(group as StatusGroup, v)
          const label = lookup(words, key)
          if (!known || typeof label !== "string" || !label.trim() || label === v) missing.push(`${lang} ${group}.${v}`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  it("means the same thing with the same colour: approved green, declined red, waiting orange or blue", () => {
    expect(statusLabel("gateway", "approved").color).toBe("green")
    expect(statusLabel("payout", "approved").color).toBe("green")
    expect(statusLabel("gateway", "declined").color).toBe("red")
    expect(statusLabel("payout", "check_declined").color).toBe("red")
    expect(statusLabel("session", "captured").color).toBe("green")
    expect(statusLabel("session", "canceled").color).toBe("grey")
    expect(["orange", "blue"]).toContain(statusLabel("payout", "checked").color)
  })

  it("an unknown value is labelled as unrecognised (orange), never silently as something known", () => {
    expect(statusLabel("gateway", "Approved ")).toMatchObject({ key: "payneteasy.status.gateway.approved", known: true })
    expect(statusLabel("payout", "teleported")).toEqual({ key: "payneteasy.status.gateway.other", color: "orange", known: false })
    expect(statusLabel("payout", null).known).toBe(false)
    expect(statusLabel("payout", "toString").known).toBe(false)
  })
})

// Keys, plural forms and placeholders of every language file: i18n/__tests__/languages.unit.spec.ts.
describe("translations", () => {
  const LANGUAGES = languagesOnDisk()

  it("plural keys come in i18next pairs (_one and _other) in every language", () => {
    for (const [lang, words] of Object.entries(languagesOnDisk())) {
      const keys = leafKeys(words)
      for (const k of keys.filter((x) => x.endsWith("_one"))) expect([lang, keys.includes(k.replace(/_one$/, "_other"))]).toEqual([lang, true])
    }
  })

  it("German differs from English (it is a translation, not a copy)", () => {
    const en = leafKeys(LANGUAGES.en).filter((k) => !/card$|none$|threeDs$|status$|title$/.test(k))
    const same = en.filter((k) => lookup(LANGUAGES.en, k) === lookup(LANGUAGES.de, k))
    expect(same.length).toBeLessThan(en.length / 10)
  })
})
