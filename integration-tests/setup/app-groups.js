/**
 * The integration spec files that share one booted Medusa app in the tier run (`npm run test:integration`), by group:
 * integration-tests/groups/<group>.spec.ts loads its members on one app (integration-tests/helpers/app-group.ts), and
 * jest.config.js leaves the members out of the tier's file list so that each runs once. A file run by name
 * (`npx jest integration-tests/http/smoke.spec.ts`) still boots its own app.
 * A member uses the sandbox's default options and no runner options; the files that do not (their own sandbox options,
 * a v4 key, env read at boot, no app at all) run alone. Two groups of about equal length, so the tier's two workers
 * each take one while the files that run alone fill in.
 */
module.exports = {
  "shared-app-a": ["callback", "saved-cards", "provider-direct", "reply-checks", "smoke"],
  "shared-app-b": ["admin-rebill", "saved-card-payments", "provider-hosted", "admin-payneteasy", "callback-reconcile"],
}
