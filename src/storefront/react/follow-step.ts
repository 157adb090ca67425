/**
 * Carrying out a payment step in the browser: a redirect (hosted page or the bank's 3-D Secure page) replaces the
 * location; 3-D Secure HTML from the gateway replaces the whole document, so its own script submits it to the bank
 * exactly as the gateway wrote it.
 */
import type { NextStep } from "../checkout"

/** Leaves the page for a `redirect` or `html` step; returns false (and does nothing) for any other step. */
export function followStep(step: NextStep, win: Window = window): boolean {
  if (step.type === "redirect") {
    win.location.assign(step.url)
    return true
  }
  if (step.type === "html") {
    win.document.open()
    win.document.write(step.html)
    win.document.close()
    return true
  }
  return false
}
