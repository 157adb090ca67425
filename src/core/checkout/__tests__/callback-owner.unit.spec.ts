/** The callback URL's ownership tag (callback-owner.ts): only the registration's control key makes it, per client_orderid. */
import { carriesOwnerTag, OWNER_PARAM, ownedCallbackUrl, ownerTag } from "../callback-owner"
import { maskPan } from "../../../gateway/scrub"

const KEY = "B17F59B4-A7DC-41B4-8FF9-8D2F5E2B3C4D"
const ID = "payses_01JDQ2W7N1XK9M3P5R7T9V1X3Z"

describe("callback owner tag", () => {
  it("is added to the callback URL, after a query the URL already has", () => {
    expect(ownedCallbackUrl("https://shop.test/payneteasy/callback", KEY, ID)).toBe(`https://shop.test/payneteasy/callback?${OWNER_PARAM}=${ownerTag(KEY, ID)}`)
    expect(ownedCallbackUrl("https://shop.test/cb?x=1", KEY, ID)).toBe(`https://shop.test/cb?x=1&${OWNER_PARAM}=${ownerTag(KEY, ID)}`)
  })

  it("verifies for its own client_orderid and key only", () => {
    const params = { [OWNER_PARAM]: ownerTag(KEY, ID), client_orderid: ID }
    expect(carriesOwnerTag(KEY, ID, params)).toBe(true)
    expect(carriesOwnerTag(KEY, `${ID}-a2`, params)).toBe(false) // another attempt's id
    expect(carriesOwnerTag("another-control-key", ID, params)).toBe(false)
  })

  it("refuses a missing, empty, truncated or altered tag", () => {
    const tag = ownerTag(KEY, ID)
    for (const given of [undefined, "", tag.slice(0, -1), `${tag}x`, tag.replace(/^./, (c) => (c === "A" ? "B" : "A")), 42]) {
      expect(carriesOwnerTag(KEY, ID, { [OWNER_PARAM]: given as any })).toBe(false)
    }
    expect(carriesOwnerTag(KEY, ID, null)).toBe(false)
  })

  it("is URL-safe and survives the log scrubber that stored callback params go through", () => {
    for (let i = 0; i < 500; i++) {
      const tag = ownerTag(KEY, `payses_${i}`)
      expect(tag).toMatch(/^[A-Za-z0-9_-]{24}$/)
      expect(maskPan(tag)).toBe(tag)
    }
  })
})
