/**
 * A scripted payer for the sandbox's own pages, over real HTTP (fetch, no redirect following by fetch itself):
 * opens the hosted page, submits the card form, answers a 3-D Secure challenge if one comes, waits through the
 * "processing" page, and reads the final auto-submitting form that posts to the merchant's redirect_url. With
 * `followReturn` it POSTs that form like a browser would and hands back the merchant's response (not followed).
 * Parsing is a few regular expressions over the sandbox's own HTML (pages.ts), not a general HTML parser.
 */

export interface ShopperCard {
  number: string
  cvv2: string
  expMonth: string
  expYear: string
  holder: string
}

export interface FinalRedirect {
  /** The merchant's redirect_url (the final form's action). */
  returnUrl: string
  /** The final-redirect parameters (status, orderid, client_orderid, control, ...). */
  params: Record<string, string>
  /** The merchant's answer to the POST, when followReturn was set. */
  returnResponse?: Response
}

export interface ShopperOptions {
  /** Answer to a 3-D Secure challenge: "pass" (the default) enters the right password, "fail" a wrong one. */
  threeDS?: "pass" | "fail"
  followReturn?: boolean
  /** Give up after this long (default 30 s). */
  timeoutMs?: number
}

const ACS_PASSWORD = "secret"

const unescape = (s: string): string =>
  s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

interface ParsedForm {
  action: string
  fields: Record<string, string>
}

function findForm(html: string, id: string, base: string): ParsedForm | undefined {
  const m = new RegExp(`<form[^>]*id="${id}"[^>]*>([\\s\\S]*?)</form>`, "i").exec(html)
  if (!m) return undefined
  const action = /action="([^"]*)"/i.exec(m[0])?.[1] ?? ""
  const fields: Record<string, string> = {}
  for (const input of m[1].match(/<input[^>]*>/gi) ?? []) {
    const name = /name="([^"]*)"/i.exec(input)?.[1]
    if (!name) continue
    fields[unescape(name)] = unescape(/value="([^"]*)"/i.exec(input)?.[1] ?? "")
  }
  return { action: new URL(unescape(action), base).toString(), fields }
}

async function post(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
}

/** Follows 303s, meta refreshes and the ACS page until the final form; returns it. */
async function untilFinal(first: Response, firstUrl: string, opts: ShopperOptions): Promise<FinalRedirect> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000)
  let res = first
  let url = firstUrl
  for (;;) {
    if (Date.now() > deadline) throw new Error(`shopper: gave up waiting at ${url}`)
    if (res.status >= 300 && res.status < 400) {
      const loc = res.headers.get("location")
      if (!loc) throw new Error(`shopper: redirect without location from ${url}`)
      await res.arrayBuffer()
      url = new URL(loc, url).toString()
      res = await fetch(url, { redirect: "manual" })
      continue
    }
    const html = await res.text()
    if (res.status !== 200) {
      const err = /id="form-error">([^<]*)</.exec(html)?.[1]
      throw new Error(`shopper: ${url} answered ${res.status}${err ? `: ${unescape(err)}` : ""}`)
    }
    const final = findForm(html, "final-redirect", url)
    if (final) {
      const out: FinalRedirect = { returnUrl: final.action, params: final.fields }
      if (opts.followReturn) out.returnResponse = await post(final.action, final.fields)
      return out
    }
    const acs = findForm(html, "acs-form", url)
    if (acs) {
      res = await post(acs.action, { ...acs.fields, password: opts.threeDS === "fail" ? "wrong-password" : ACS_PASSWORD })
      continue
    }
    const refresh = /<meta http-equiv="refresh" content="\d+;url=([^"]*)"/i.exec(html)
    if (refresh) {
      await new Promise((r) => setTimeout(r, 25))
      url = new URL(unescape(refresh[1]), url).toString()
      res = await fetch(url, { redirect: "manual" })
      continue
    }
    const finished = /id="final-status">([^<]*)</.exec(html)?.[1]
    throw new Error(`shopper: no final redirect form at ${url}${finished ? ` (${unescape(finished)}; no redirect_url?)` : ""}`)
  }
}

/** Pays on a hosted page (card form; also fills the card fields of a payout destination page). */
export async function payHostedPage(pageUrl: string, card: ShopperCard, opts: ShopperOptions = {}): Promise<FinalRedirect> {
  const res = await fetch(pageUrl, { redirect: "manual" })
  if (res.status >= 300 && res.status < 400) return untilFinal(res, pageUrl, opts) // already submitted
  const html = await res.text()
  if (res.status !== 200) throw new Error(`shopper: ${pageUrl} answered ${res.status}`)
  const form = findForm(html, "card-form", pageUrl) ?? findForm(html, "payout-form", pageUrl)
  if (!form) throw new Error(`shopper: no card form at ${pageUrl}`)
  const fields: Record<string, string> = {
    ...form.fields,
    credit_card_number: card.number,
    card_printed_name: card.holder,
    expire_month: card.expMonth,
    expire_year: card.expYear,
  }
  if ("cvv2" in form.fields) fields.cvv2 = card.cvv2
  return untilFinal(await post(form.action, fields), form.action, opts)
}

/** Direct-flow 3-D Secure: opens the ACS page (status `redirect-to`), answers it, returns the final redirect. */
export async function completeChallenge(
  acsUrl: string,
  outcome: "pass" | "fail",
  opts: Omit<ShopperOptions, "threeDS"> = {},
): Promise<FinalRedirect> {
  const res = await fetch(acsUrl, { redirect: "manual" })
  return untilFinal(res, acsUrl, { ...opts, threeDS: outcome })
}
