/** A stop request's outcome over every gateway status (gateway-calls.ts STOP_OUTCOME): a new status needs a row. */
import { GATEWAY_STATUSES } from "../../../gateway/statuses"
import { stopOutcome } from "../gateway-calls"

describe("stopOutcome over every gateway status", () => {
  const FINAL_REFUSED = new Set<string>(["declined", "error", "filtered"])
  it.each(GATEWAY_STATUSES.map((s) => [s]))("%s", (status) => {
    const out = stopOutcome(status, "why", "STATUS of s-1")
    const kind = status === "approved" ? "stopped" : FINAL_REFUSED.has(status) ? "refused" : "unknown"
    expect(out.kind).toBe(kind)
    if (kind === "refused") expect(out).toMatchObject({ message: `STATUS of s-1 says ${status}: why` })
    expect(stopOutcome(` ${status.toUpperCase()}`, undefined, "the reply").kind).toBe(kind)
  })

  it("a plain reply without a status means stopped; a STATUS without one does not", () => {
    expect(stopOutcome(undefined, undefined, "the reply").kind).toBe("stopped")
    expect(stopOutcome(undefined, undefined, "STATUS of s-1")).toMatchObject({ kind: "unknown", message: expect.stringMatching(/says nothing/) })
  })
})
