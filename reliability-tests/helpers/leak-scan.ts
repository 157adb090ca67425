/**
 * The leak scanner: finds the control key, private-key material, Luhn-valid 13–19 digit numbers (card numbers) and
 * CVV fields carrying a value in a text. A hit is reported with its kind and a masked excerpt (the report itself must
 * not leak). Card numbers: Luhn-valid and in a card scheme's range (cardLike). Used on captured logs, every database table, session data and every HTTP response body.
 */
import { luhnOk } from "../../src/gateway/luhn"

export interface Secrets {
  controlKey: string
  /** PEM of the RSA private key the provider loaded (its base64 lines are the material that must not leak). */
  privateKeyPem?: string
}

export interface Hit {
  kind: "control key" | "private key" | "card number" | "cvv field"
  where: string
  excerpt: string
}

const PAN_CANDIDATE = /(?<![0-9])[0-9]{13,19}(?![0-9])/g
/**
 * Card schemes' number ranges start with 3–6 (Amex, Diners, JCB, Visa, Mastercard 51–55, Discover, Maestro,
 * UnionPay) or 2221–2720 (Mastercard 2-series). Luhn-valid digit runs outside them are not card numbers: epoch
 * milliseconds (1…) in workflow storage, migration timestamps (20…) in mikro_orm_migrations.
 */
export function cardLike(digits: string): boolean {
  if (!luhnOk(digits)) return false
  if (/^[3-6]/.test(digits)) return true
  const four = Number(digits.slice(0, 4))
  return four >= 2221 && four <= 2720
}
// Quotes may be doubled (a row as text: `""cvv"": ""123""`) or escaped (JSON inside a string: `\\"cvv\\":`).
const CVV_FIELD = /(?<![A-Za-z0-9_])["'\\]{0,4}(?:cvv2?|cvc2?|csc|card_?cvv|security_?code)["'\\]{0,4}\s*(?:[:=]|%3A|%3D)\s*["'\\]{0,4}[0-9]{3,4}(?![0-9])/gi
const PEM_HEADER = /-----BEGIN [A-Z ]*PRIVATE KEY-----/

const mask = (s: string) => s.replace(/[0-9A-Za-z+/]/g, (c, i: number) => (i % 3 === 0 ? c : "*"))

function excerpt(text: string, at: number, len: number) {
  return mask(text.slice(Math.max(0, at - 20), at + len + 20)).replace(/\s+/g, " ")
}

/** Base64 lines of the key's PEM body (each 64 characters; any one of them in a text is key material). */
function keyLines(pem: string): string[] {
  return pem
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length >= 40 && !l.startsWith("-----"))
}

export function scan(text: string, where: string, secrets: Secrets): Hit[] {
  const hits: Hit[] = []
  let at = text.indexOf(secrets.controlKey)
  if (at >= 0) hits.push({ kind: "control key", where, excerpt: excerpt(text, at, secrets.controlKey.length) })
  const header = PEM_HEADER.exec(text)
  if (header) hits.push({ kind: "private key", where, excerpt: excerpt(text, header.index, header[0].length) })
  for (const line of secrets.privateKeyPem ? keyLines(secrets.privateKeyPem) : []) {
    at = text.indexOf(line)
    if (at >= 0) hits.push({ kind: "private key", where, excerpt: excerpt(text, at, 12) })
  }
  for (const m of text.matchAll(PAN_CANDIDATE)) {
    if (cardLike(m[0])) hits.push({ kind: "card number", where, excerpt: excerpt(text, m.index ?? 0, m[0].length) })
  }
  for (const m of text.matchAll(CVV_FIELD)) {
    hits.push({ kind: "cvv field", where, excerpt: excerpt(text, m.index ?? 0, m[0].length) })
  }
  return hits
}

export function scanAll(texts: Array<{ where: string; text: string }>, secrets: Secrets): Hit[] {
  return texts.flatMap((t) => scan(t.text, t.where, secrets))
}
