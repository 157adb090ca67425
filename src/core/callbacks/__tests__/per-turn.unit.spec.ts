import { perTurn } from "../per-turn"

/** A resource whose batches stay pending until the test settles them. */
function resource() {
  const batches: Array<{ keys: string[]; settle: (answer?: Error | Array<string | Error>) => void }> = []
  const call = (keys: readonly string[]) =>
    new Promise<Array<string | Error>>((resolve, reject) =>
      batches.push({
        keys: [...keys],
        settle: (answer) => (answer instanceof Error ? reject(answer) : resolve(answer ?? keys.map((k) => `done:${k}`))),
      })
    )
  return { batches, call }
}
type Resource = ReturnType<typeof resource>

const turn = () => new Promise((r) => setImmediate(r))
const state = (p: Promise<unknown>) => {
  const s = { v: "pending" as string }
  p.then((v) => (s.v = `resolved ${v}`), (e) => (s.v = `rejected ${(e as Error).message}`))
  return s
}

describe("batching the calls of one event-loop turn", () => {
  const make = (max?: number) => perTurn<Resource, string, string>((r, keys) => r.call(keys), max)

  it("keys passed in one turn make one batch, in order, a repeated key included; each caller gets its own answer", async () => {
    const inTurn = make()
    const r = resource()
    const answers = ["a", "b"].map((k) => inTurn(r, k))
    // a key passed after an await of the same turn (as a request does after its first step) joins too
    await Promise.resolve()
    answers.push(inTurn(r, "a"))
    expect(r.batches).toHaveLength(0)
    await turn()
    expect(r.batches.map((b) => b.keys)).toEqual([["a", "b", "a"]])
    r.batches[0].settle()
    await expect(Promise.all(answers)).resolves.toEqual(["done:a", "done:b", "done:a"])
  })

  it("a caller is settled only when its batch is; later turns make their own batches", async () => {
    const inTurn = make()
    const r = resource()
    const first = state(inTurn(r, "a"))
    await turn()
    const second = state(inTurn(r, "b"))
    await turn()
    expect(r.batches.map((b) => b.keys)).toEqual([["a"], ["b"]])
    expect([first.v, second.v]).toEqual(["pending", "pending"])
    r.batches[1].settle()
    await turn()
    expect([first.v, second.v]).toEqual(["pending", "resolved done:b"])
    r.batches[0].settle()
    await turn()
    expect(first.v).toBe("resolved done:a")
  })

  it("a failed batch fails every caller in it with its error; an Error answer fails only its own key", async () => {
    const inTurn = make()
    const r = resource()
    const failed = [inTurn(r, "a"), inTurn(r, "b")]
    await turn()
    const mixed = [inTurn(r, "c"), inTurn(r, "d")]
    await turn()
    r.batches[0].settle(new Error("database is down"))
    r.batches[1].settle([new Error("no such row"), "done:d"])
    for (const p of failed) await expect(p).rejects.toThrow("database is down")
    await expect(mixed[0]).rejects.toThrow("no such row")
    await expect(mixed[1]).resolves.toBe("done:d")
  })

  it("never mixes two resources, and splits a turn's keys at the batch size", async () => {
    const inTurn = make(2)
    const one = resource()
    const two = resource()
    for (const k of ["a", "b", "c"]) void inTurn(one, k)
    void inTurn(two, "x")
    await turn()
    expect(one.batches.map((b) => b.keys)).toEqual([["a", "b"], ["c"]])
    expect(two.batches.map((b) => b.keys)).toEqual([["x"]])
    for (const b of [...one.batches, ...two.batches]) b.settle()
  })
})
