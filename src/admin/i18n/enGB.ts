/**
 * English (UK) words of the plugin's dashboard screens: en.ts with British spellings, as Medusa's own enGB.json spells
 * them ("Authorised", "Cancelled"); everything else is en's (typed against ./en.ts: a missing key fails the type check).
 */
import { en, type Messages } from "./en"

const p = en.payneteasy

export const enGB: Messages = {
  payneteasy: {
    ...p,
    status: {
      ...p.status,
      session: { ...p.status.session, pending_authorization: "Authorisation in progress", authorized: "Authorised", canceled: "Cancelled" },
      activity: { ...p.status.activity, authorization: "Authorisation", release: "Authorisation released" },
    },
    summary: { ...p.summary, authorized: "Authorised", none: "No PaynetEasy payment was authorised for this order." },
  },
}
