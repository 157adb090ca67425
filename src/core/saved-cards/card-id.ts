/**
 * The shape of the plugin's saved-card id (`pnecard_…`, the card row's primary key), on its own so zod schemas that
 * the admin dashboard also bundles (payout validators) can check it without loading the backend's card records.
 */
export const SAVED_CARD_ID = /^pnecard_[0-9A-Za-z]{10,40}$/

export const SAVED_CARD_ID_MESSAGE = "card_id must be a saved card id (pnecard_…)"
