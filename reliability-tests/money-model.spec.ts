/**
 * Money stays where it is, whatever sequence of public calls, admin actions and gateway misbehaviour: a model-based
 * test (fast-check `commands` + `asyncModelRun`, issue 49). fast-check draws sequences of what the Store API, the
 * plugin's store routes, the Admin API and the gateway allow — guest and customer checkouts (hosted page paid by the
 * sandbox's shopper, manual and automatic capture; direct card, with and without 3-D Secure, declined; saved card;
 * off-session), new payment sessions on open and on paid collections, cart completion, double submits (again and at
 * once), admin capture / refund / cancel, callbacks lost, duplicated, held back, delayed and delivered again,
 * reconciliation ticks, and the sandbox's faults on the next request of a gateway operation (HTTP 500, connection
 * reset, reply lost after processing, an unreadable 200, latency, and slow processing once the sandbox has it) — and
 * runs each against the real app over HTTP and the sandbox over HTTP (helpers/money-model/).
 *
 * After every step the oracle (helpers/money-model/oracle.ts) compares, checkout by checkout, the sandbox's ledger with
 * Medusa's payments, captures, refunds and order summary and the plugin's intents, and scans the stored rows for the
 * test card's number; after the sequence it clears the faults, lets reconciliation run and requires full agreement.
 * A failure prints fast-check's seed, path and shrunk sequence, and the failing run's requests and ledgers.
 *
 * Size: RELIABILITY_MODEL_RUNS sequences (default 50) of up to RELIABILITY_MODEL_STEPS steps (default 12);
 * RELIABILITY_SOAK=1 runs 1,000. RELIABILITY_SEED replays a seed; with RELIABILITY_MODEL_PATH and
 * RELIABILITY_MODEL_REPLAY_PATH (fast-check's path and the command list's replayPath) the shrunk sequence itself: a
 * failure prints all three.
 * One app boot for all sequences: each sequence uses its own carts, so nothing is reset between them but the faults.
 */
import fc from "fast-check"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { TEST_APP_DIR } from "../integration-tests/helpers/paths"
import { useSandbox } from "../integration-tests/helpers/sandbox"
import { HEADERS_TIMEOUT_ENV } from "../integration-tests/helpers/provider-options"
import { allCommands, checkoutCommand, CLIENT_HEADERS_TIMEOUT_MS, drawn, spent, GATEWAY_FAULTS, ModelDivergence, type Model } from "./helpers/money-model/commands"
import { describe as describeLedgers, readLedgers, settle } from "./helpers/money-model/oracle"
import { createWorld, newSequence, type World } from "./helpers/money-model/world"
import { printFigures } from "./helpers/figures"

const SOAK = process.env.RELIABILITY_SOAK === "1"
const RUNS = Number(process.env.RELIABILITY_MODEL_RUNS ?? (SOAK ? 1000 : 50))
const STEPS = Number(process.env.RELIABILITY_MODEL_STEPS ?? 12)
// npm test draws the same sequences every run (a run that is red only because it drew what the last one did not is
// the "green here, red there" issue 54 names); a soak draws new ones each time. Either prints its seed.
const SEED = Number(process.env.RELIABILITY_SEED ?? (SOAK ? Date.now() % 2 ** 31 : 20261202))
const PATH = process.env.RELIABILITY_MODEL_PATH
// fast-check's replayPath of the failing command list (printed in the counterexample): with the seed and the path it
// replays the shrunk sequence itself.
const REPLAY_PATH = process.env.RELIABILITY_MODEL_REPLAY_PATH
/** Sequences run while shrinking a failure, at most (each is a real run against the app: seconds). */
const SHRINK_RUNS = Number(process.env.RELIABILITY_MODEL_SHRINK_RUNS ?? 60)

jest.setTimeout(Math.max(20 * 60_000, RUNS * STEPS * 8_000))

// The client gives up on a reply after 1.5 s (read by medusa-config when the runner boots the app): a slow-processing
// fault can outlast it without the sequence waiting the default 10 s.
process.env[HEADERS_TIMEOUT_ENV] = String(CLIENT_HEADERS_TIMEOUT_MS)
const sandbox = useSandbox()

// In npm test since issue 49's stop 59: 50 x 12 of seed 20261202 passes once the divergences it found are closed
// (two concurrent refunds of one Payment: core/checkout/payment-ledger.ts; a refund on a canceled order:
// api/canceled-order-refund-guard.ts; a maybe-sent VOID is an attention item once the processing window passes:
// helpers/money-model/oracle.ts settle). RELIABILITY_SOAK=1 runs 1,000 of a new seed.
medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let world: World

    beforeAll(async () => {
      world = await createWorld(api, getContainer(), sandbox)
    })

    it(`${RUNS} random sequences of up to ${STEPS} public actions and gateway faults: the gateway's ledger and Medusa's agree after every step`, async () => {
      const wall = Date.now()
      const cpu = process.cpuUsage()
      let sequences = 0
      let steps = 0
      let failures = 0
      let shrinking = 0
      let settleMs = 0
      let lastFailure: { error: unknown; sequence: string } | undefined
      console.log(`[reliability] money model: seed ${SEED}${PATH ? `, path ${PATH}` : ""}, ${RUNS} sequences of up to ${STEPS} steps, faults ${GATEWAY_FAULTS.join(" ")}`)
      // Every sequence opens with a checkout (completed three times in four), so the steps after it have something to act on.
      const sequence = fc.tuple(checkoutCommand(3), fc.commands(allCommands(), { maxCommands: 2 * STEPS, size: "max", ...(REPLAY_PATH ? { replayPath: REPLAY_PATH } : {}) }))
      const property = fc.asyncProperty(sequence, async ([first, commands]) => {
        // Shrinking re-runs sequences against the app; past the budget, the smallest failure so far is the answer.
        if (failures > 0 && ++shrinking > SHRINK_RUNS) return
        sequences++
        newSequence(world)
        const model: Model = { checkouts: world.checkouts, steps: 0, maxSteps: STEPS }
        try {
          await fc.asyncModelRun(() => ({ model, real: world }), [first, ...commands])
          const t0 = Date.now()
          const problems = await settle(world).finally(() => (settleMs += Date.now() - t0))
          if (problems.length) throw new ModelDivergence(problems, describeLedgers(await readLedgers(world, world.checkouts)), world.log)
        } catch (error) {
          failures++
          lastFailure = { error, sequence: `${first}, ${commands}` }
          throw error
        } finally {
          steps += world.log.filter((l) => !l.startsWith("  ")).length
        }
      })
      let failed: unknown
      await fc.assert(property, { numRuns: RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}), endOnFailure: false }).catch((e) => (failed = e))
      const used = process.cpuUsage(cpu)
      printFigures({
        "money model sequences": sequences, steps, "failed runs (while shrinking)": failures, seed: SEED,
        "wall s": Math.round((Date.now() - wall) / 1000), "CPU s (test process)": Math.round((used.user + used.system) / 1e6),
      })
      printFigures({ "money model commands": Object.entries(drawn).sort().map(([k, v]) => `${k}×${v}`).join(" ") })
      printFigures({ "money model wall s by command": Object.entries(spent).sort().map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(" "), "settle s": Math.round(settleMs / 1000) })
      if (failed) {
        const detail = lastFailure?.error instanceof Error ? lastFailure.error.message : String(lastFailure?.error)
        const replay = /path: "([^"]+)"/.exec((failed as Error).message)?.[1]
        const commandsPath = /replayPath="([^"]+)"/.exec((failed as Error).message)?.[1]
        throw new Error(`money model diverged (replay: RELIABILITY_SEED=${SEED}${replay ? ` RELIABILITY_MODEL_PATH=${replay}` : ""}${commandsPath ? ` RELIABILITY_MODEL_REPLAY_PATH=${commandsPath}` : ""}):\n` +
          `${(failed as Error).message}\n-- the last failing run (the shrunk sequence ${lastFailure?.sequence}):\n${detail}`)
      }
      expect(sequences).toBeGreaterThanOrEqual(PATH ? 1 : RUNS)
    })
  },
})
