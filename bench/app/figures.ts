/**
 * Figures that need the real Medusa app (bench/app/server.ts): checkout, callbacks/s, forged callbacks/s, scale of
 * the callback log, the reconciliation tick, and memory after many callbacks. HTTP load comes from autocannon in
 * this (parent) process; database checks go through the app's own Postgres connection.
 */
import autocannon from "autocannon"
import { request } from "undici"
import { PROVIDER_IDS } from "../../integration-tests/helpers/provider-options"
import { checkoutToPaymentSession, completeCart, storeHeaders, type StoreFixture } from "../../integration-tests/helpers/store"
import { fetchApi } from "../../scripts/demo/http-api"
import { figure, side, type Figure } from "../lib/report"
import { CpuTally } from "../lib/cpu"
import { alternate, summarize } from "../lib/stats"
import { EXISTING_CALLBACKS_SQL, existingCallbacksBindings } from "../../src/modules/payneteasy/callback-lookup"
import { APPROVE_CARD, sessionId } from "./shared"
import type { AppProcess } from "./child"

export interface AppSizes {
  checkouts: number
  /** untimed checkout pairs before them (checkoutFigure) */
  checkoutWarmups: number
  /** genuine callbacks for callbacks/s, split over `rounds` */
  callbacks: number
  rounds: number
  /** seconds of each /health and forged round */
  floodSeconds: number
  /** also flood an unserved path with the forged query strings each round (context for the forged note, not judged) */
  medusa404: boolean
  connections: number
  scaleRows: number
  scaleSamples: number
  watched: number
  /** reconciliation ticks of each size (after one warm-up pair) */
  reconcileRounds: number
  /** callbacks sent after the memory figure's warm-up (distinct genuine ones + redeliveries of them) */
  memoryCallbacks: number
  /** distinct genuine callbacks among them, each processed */
  memoryDistinct: number
  /** chunks the distinct ones are sent in, each processed before its redeliveries follow */
  memoryChunks: number
  /** callback → Payment: measured pairs (one callback, one processPaymentWorkflow) after `paymentWarmups` pairs */
  payments: number
  paymentWarmups: number
  /** growth: stored rows at each step, the first is the floor (bench/app/figures.ts growthFigures) */
  growthRows: number[]
  /** growth: samples of each cost at each step */
  growthSamples: number
}

type Cannon = autocannon.Result & { seconds: number }

/**
 * autocannon, timed here: from the start to the last response. autocannon's own `duration` ends on its next
 * one-second sample tick, so a run of a fixed `amount` reads as lasting a whole second or more however fast it was
 * (150 callbacks in 0.3 s came out as "75 req/s").
 * The run itself also ends only on a sample tick (autocannon checks its stop flag there): with the default 1 s
 * interval every `sendPaths` of ten callbacks took a second and a timed flood up to a second more, about 10 s of the
 * quick run. A 50 ms interval ends each within 50 ms of its last response; the figures read only totals, status
 * counts and latencies, which the interval does not change.
 */
function cannon(opts: autocannon.Options): Promise<Cannon> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    let last = t0
    const run = autocannon({ sampleInt: 50, ...opts } as autocannon.Options, (err, result) => (err ? reject(err) : resolve({ ...result, seconds: (last - t0) / 1000 })))
    run.on("response", () => {
      last = performance.now()
    })
  })
}

const rate = (r: Cannon) => r.requests.total / Math.max(r.seconds, 1e-9)
const mid = (xs: number[]) => summarize(xs).median

/**
 * GETs cycling through `paths`. Every side of a ratio is sent this way, so the load generator does the same work per
 * request on both: autocannon sends a fixed request from a prebuilt buffer, but builds one per request when a
 * `setupRequest` picks the path, and on 2 shared cores that cost showed up as server idle time in the side that had it
 * (a forged flood against a plain /health flood).
 */
function cycling(paths: string[]): NonNullable<autocannon.Options["requests"]> {
  let i = 0
  return [{ setupRequest: (req: any) => ({ ...req, method: "GET", path: paths[i++ % paths.length] }) }]
}

/** A flood of `seconds`. */
function flood(url: string, paths: string[], connections: number, seconds: number): Promise<Cannon> {
  return cannon({ url, connections, duration: seconds, requests: cycling(paths) })
}

/** Each path sent once (amount = paths.length). */
function sendPaths(url: string, paths: string[], connections: number): Promise<Cannon> {
  return cannon({ url, connections, amount: paths.length, requests: cycling(paths) })
}

async function waitDrained(app: AppProcess, timeoutMs = 180_000): Promise<number> {
  const t0 = Date.now()
  for (;;) {
    const [{ n }] = await app.call("sql", { text: `select count(*)::int as n from payneteasy_callback where outcome = 'received' and source = 'callback'` })
    if (n === 0) return (Date.now() - t0) / 1000
    if (Date.now() - t0 > timeoutMs) throw new Error(`${n} callbacks still unprocessed after ${timeoutMs / 1000} s`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export async function checkoutFigure(app: AppProcess, sizes: AppSizes): Promise<Figure> {
  const api = fetchApi(app.ready.url)
  const store: StoreFixture = app.ready.store
  const card = { number: APPROVE_CARD.number, cvv: APPROVE_CARD.cvv2, expMonth: APPROVE_CARD.expMonth, expYear: APPROVE_CARD.expYear, holder: APPROVE_CARD.holder }
  const ours = async () => {
    const { cart, session } = await checkoutToPaymentSession(api, store, PROVIDER_IDS.direct)
    const res = await api.post<{ payment_session: any }>(`/store/payneteasy/payment-sessions/${session.id}/card`, { card }, storeHeaders(store))
    if (res.data.payment_session.status !== "authorized") throw new Error(`direct card step answered ${res.data.payment_session.status}`)
    const done = await completeCart(api, store, cart.id)
    if (done.type !== "order") throw new Error("PaynetEasy checkout did not complete into an order")
  }
  const floor = async () => {
    const { cart } = await checkoutToPaymentSession(api, store, "pp_system_default", { sessionData: {} })
    const done = await completeCart(api, store, cart.id)
    if (done.type !== "order") throw new Error("pp_system_default checkout did not complete into an order")
  }
  // Warm-up: on a fresh app both paths run cold for about three checkouts (JIT, connection pools): measured 2.2, 1.3 and
  // 1.0 s for ours, 1.4, 1.3 and 1.0 s for the floor, then 0.8–0.9 s each. With one warm-up pair the first samples of
  // the quick run's five were still on that slope; the full run takes three pairs, the quick run two (its time budget).
  // What still swings after them is the direct flow's own race (the sandbox's callback and the storefront both
  // complete the cart).
  for (let i = 0; i < sizes.checkoutWarmups; i++) {
    await ours()
    await floor()
  }
  const r = await alternate({ ours, floor }, sizes.checkouts)
  return figure({
    figure: "checkout", unit: "ms", goal: { kind: "ratio-max", limit: 1.25 },
    oursWhat: "store API: cart → shipping → collection → session (direct) → card → complete, instant sandbox",
    floorWhat: "the same checkout with pp_system_default (no card step)",
    ours: side(r.ours), floor: side(r.floor),
  })
}

/** Seconds of the untimed /health flood between the genuine phase and the forged pair (callbackFigures' header). */
const SETTLE_SECONDS = 2

/**
 * callbacks/s and forged callbacks/s against /health on the same server, in interleaved rounds (health, a batch of
 * distinct genuine callbacks, an untimed settling flood of /health, forged flood, health again); each figure is judged
 * on the median of its per-round ratios, which a busy machine's drift cannot tilt. The worker processes the genuine
 * ones (STATUS + a Payment each) while the server answers; afterwards the database is checked.
 * Every flood starts on a freshly collected server heap (`fresh`): otherwise a full collection of the previous
 * phase's garbage lands in whichever flood comes next, and one side of a pair pays for the other's (per-round forged
 * ratios swung from 0.55 to 1.01 before). The genuine burst is the exception: it follows its /health flood directly
 * (see the loop).
 * The settling flood: whatever flood comes first after the genuine phase runs slow for its first 1.5–2 s, /health as
 * much as forged callbacks (a first /health flood read 0.80–0.90× of the later ones; forged floods cut in 0.5 s
 * slices rose from 800–1,400 to 1,900–2,000 req/s by the fourth slice, then read 1.06× of /health at its CPU per
 * request). Without it the forged flood took that slow start and its /health neighbour, after it, did not: the ratio
 * read a median 0.81× over 20 rounds (CPU per request 750–870 µs against /health's 550–600) where a second forged
 * flood in the same rounds read 0.95×.
 */
export async function callbackFigures(app: AppProcess, sizes: AppSizes): Promise<Figure[]> {
  const url = app.ready.url
  const warmN = Math.min(60, Math.ceil(sizes.callbacks / 4))
  const { genuine: all, forged } = await app.call<{ genuine: string[]; forged: string[] }>("makeSessions", { n: sizes.callbacks + warmN, tag: "CB" })
  await settleTemplate(app)
  // warm-up: health, forged and genuine (its own sessions), so the first round pays no JIT or pool growth
  await flood(url, ["/health"], sizes.connections, 1)
  await sendPaths(url, forged.slice(0, 200), sizes.connections)
  // SQL statements per callback on each side, counted over the warm-up's genuine callbacks and their processing (a
  // regression shows here first), so that the counting (a listener on every query) stays out of the timed rounds
  await app.call("queryLog", { on: true })
  await app.worker.call("queryLog", { on: true })
  await sendPaths(url, all.slice(0, warmN), sizes.connections)
  await waitDrained(app)
  const serverSql = (await app.call<{ total: number }>("queryLog", { on: false })).total / warmN
  const workerSql = (await app.worker.call<{ total: number }>("queryLog", { on: false })).total / warmN
  const genuine = all.slice(warmN)
  const statusBefore = (await app.call<Record<string, number>>("sandboxRequests"))["STATUS"] ?? 0

  const health: number[] = []
  const healthForForged: number[] = []
  const ours: number[] = []
  const oursP99: number[] = []
  const ratios: number[] = []
  const forgedRates: number[] = []
  const forgedRatios: number[] = []
  const medusa404: number[] = []
  // the forged requests' own query strings on a path nobody serves: what Medusa spends on a request of that shape
  const unserved = forged.map((p) => p.replace("/payneteasy/callback?", "/payneteasy/no-such-route?"))
  const forgedP99: number[] = []
  const e2e: number[] = []
  let non2xx = 0
  let forgedNot4xx = 0
  const per = Math.ceil(genuine.length / sizes.rounds)
  const fresh = () => app.call("gc")
  // CPU per request of each process (bench/lib/cpu.ts), summed over the rounds: the note says where the time goes
  const cpu = new CpuTally(async () => ({
    server: [app.pid],
    worker: [app.worker.pid],
    postgres: (await app.call<Array<{ pid: number }>>("sql", { text: "select pid from pg_stat_activity where datname = current_database()" })).map((r) => r.pid),
  }))
  const requests = (r: Cannon) => r.requests.total
  for (let round = 0; round < sizes.rounds; round++) {
    await fresh()
    const h = await cpu.during("health", () => flood(url, ["/health"], sizes.connections, sizes.floodSeconds), requests)
    health.push(rate(h))
    const batch = genuine.slice(round * per, (round + 1) * per)
    // No forced collection between the /health flood and this burst: the server runs slowly for about 50 ms after
    // `gc()` (a /health burst of 150 requests read 0.42–0.76× of the flood's rate right after one, 0.93–1.12× without),
    // which a 2 s flood absorbs but a burst of under a second does not. The /health flood before it started fresh and leaves
    // little garbage; per-round ratios stayed within 0.27–0.29 without the collection here.
    const t0 = Date.now()
    const g = await cpu.during("genuine", () => sendPaths(url, batch, sizes.connections), requests)
    non2xx += g.non2xx + g.errors + g.timeouts
    ours.push(rate(g))
    ratios.push(rate(g) / rate(h))
    oursP99.push(g.latency.p99)
    await cpu.during("processing", () => waitDrained(app), () => batch.length)
    e2e.push(batch.length / ((Date.now() - t0) / 1000))
    // an untimed /health flood to settle (see the header), then the forged flood, then /health again (so each forged
    // round has its own /health neighbour, both in the steady state)
    await fresh()
    await flood(url, ["/health"], sizes.connections, SETTLE_SECONDS)
    await fresh()
    const f = await cpu.during("forged", () => flood(url, forged, sizes.connections, sizes.floodSeconds), requests)
    forgedNot4xx += f.requests.total - (f.statusCodeStats?.["403"]?.count ?? 0)
    forgedRates.push(rate(f))
    forgedP99.push(f.latency.p99)
    await fresh()
    const h2 = await flood(url, ["/health"], sizes.connections, sizes.floodSeconds)
    healthForForged.push(rate(h2))
    forgedRatios.push(rate(f) / rate(h2))
    // Context, not judged: Medusa's own 404 for the forged query strings on a path nobody serves. /health is
    // registered after Medusa's loaders, as `medusa start` does (scripts/demo/app.ts bootApp), so it passes Medusa's
    // app-wide middleware (request logging, cookies, session) but no route's own (scope, body parsers): the floor a
    // store really has.
    if (sizes.medusa404) {
      await fresh()
      medusa404.push(rate(await flood(url, unserved, sizes.connections, sizes.floodSeconds)))
    }
  }
  const statusAfter = (await app.call<Record<string, number>>("sandboxRequests"))["STATUS"] ?? 0
  // The database afterwards: one row per callback, each processed once, none left behind.
  const first = genuine[0] ? new URLSearchParams(genuine[0].split("?")[1]).get("client_orderid")! : ""
  const [db] = await app.call<any[]>("sql", {
    text: `select count(*)::int as rows, count(distinct client_orderid)::int as distinct_ids,
             count(*) filter (where outcome = 'processed')::int as processed
           from payneteasy_callback where client_orderid like 'payses_CB%' and client_orderid >= ? and source = 'callback'`,
    params: [first],
  })
  const [pay] = await app.call<any[]>("sql", {
    text: `select count(*)::int as payments, count(distinct payment_session_id)::int as sessions from payment
           where payment_session_id like 'payses_CB%' and payment_session_id >= ? and deleted_at is null`,
    params: [first],
  })
  const [forgedRows] = await app.call<any[]>("sql", { text: `select count(*)::int as n from payneteasy_callback where client_orderid like 'payses_CB%' and source <> 'callback'` })
  const sent = genuine.length
  const statusCalls = statusAfter - statusBefore
  const us = (phase: string, group: string) => Math.round(cpu.perUnitMicros(phase)[group] ?? NaN).toLocaleString("en-US")
  const ms = (phase: string, group: string) => ((cpu.perUnitMicros(phase)[group] ?? NaN) / 1000).toFixed(1)
  return [
    figure({
      figure: "callbacks/s", unit: "req/s", goal: { kind: "ratio-min", limit: 0.5 }, ratio: mid(ratios),
      oursWhat: `${sent} distinct genuine callbacks in ${sizes.rounds} rounds (server: verify, log, emit, 200; worker, after the plugin's processing delay: STATUS + Payment per callback) via autocannon, ${sizes.connections} connections`,
      floorWhat: "/health on the same server, same connections, just before each round",
      ours: { value: mid(ours), p99: undefined, n: ours.length }, floor: { value: mid(health), n: health.length },
      checks: [
        { what: `0 lost: ${db.rows} log rows for ${sent} callbacks, ${db.processed} processed`, ok: db.rows === sent && db.distinct_ids === sent && db.processed === sent, correctness: true },
        { what: `0 processed twice: ${pay.payments} payments for ${pay.sessions} sessions, ${statusCalls} STATUS calls`, ok: pay.payments === sent && pay.sessions === sent && statusCalls === sent, correctness: true },
        { what: `0 non-2xx: ${non2xx}`, ok: non2xx === 0, correctness: true },
      ],
      note: `SQL statements per callback (the ${warmN} of the warm-up): server ${serverSql.toFixed(1)}, worker ${workerSql.toFixed(1)}; CPU per request: /health ${us("health", "server")} µs on the server; a genuine callback ${us("genuine", "server")} µs on the server and ${us("genuine", "postgres")} µs in Postgres (the worker took ${us("genuine", "worker")} µs meanwhile), then processing ${ms("processing", "worker")} ms on the worker and ${ms("processing", "postgres")} ms in Postgres; route latency p99 ${mid(oursP99)} ms; per-round ratios ${ratios.map((r) => r.toFixed(2)).join(", ")}; end to end (sent → all processed by the worker, STATUS-confirmed, the plugin's processing delay included) ${mid(e2e).toFixed(0)} callbacks/s`,
    }),
    figure({
      figure: "forged callbacks/s", unit: "req/s", goal: { kind: "ratio-min", limit: 0.8 }, ratio: mid(forgedRatios),
      oursWhat: "/payneteasy/callback flooded with forged callbacks (valid shape, real session ids, control under a wrong key)",
      floorWhat: "/health on the same server, same connections, just after each flood",
      ours: { value: mid(forgedRates), n: forgedRates.length }, floor: { value: mid(healthForForged), n: healthForForged.length },
      checks: [
        { what: `all refused 403: ${forgedNot4xx} were not`, ok: forgedNot4xx === 0, correctness: true },
        { what: `nothing recorded: ${forgedRows.n} rows`, ok: forgedRows.n === 0, correctness: true },
      ],
      note: `forged latency p99 ${mid(forgedP99)} ms; CPU per request on the server ${us("forged", "server")} µs (/health ${us("health", "server")} µs; meanwhile the worker ${us("forged", "worker")} µs, Postgres ${us("forged", "postgres")} µs); per-round ratios ${forgedRatios.map((r) => r.toFixed(2)).join(", ")}${sizes.medusa404 ? `; Medusa's own 404 for the same query strings on an unserved path: ${mid(medusa404).toFixed(0)} req/s, so forged ÷ Medusa 404 = ${(mid(forgedRates) / mid(medusa404)).toFixed(2)}×` : ""}`,
    }),
  ]
}

/** makeSessions' template session is paid on the sandbox's page, whose own callback arrives a moment later. */
async function settleTemplate(app: AppProcess): Promise<void> {
  await new Promise((r) => setTimeout(r, 500))
  await waitDrained(app)
}

/** One genuine callback, timed at the route. */
async function timedCallback(app: AppProcess, path: string): Promise<number> {
  const t0 = process.hrtime.bigint()
  const res = await request(`${app.ready.url}${path}`)
  await res.body.text()
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  if (res.statusCode !== 200) throw new Error(`genuine callback answered ${res.statusCode}`)
  return ms
}

export async function scaleFigure(app: AppProcess, sizes: AppSizes): Promise<Figure> {
  const n = sizes.scaleSamples
  const { genuine } = await app.call<{ genuine: string[] }>("makeSessions", { n: n * 4 + 4, tag: "SC" })
  await settleTemplate(app)
  const fill = async () => {
    await app.call("sql", {
      text: `insert into payneteasy_callback (id, source, provider_id, session_id, orderid, client_orderid, type, status, event_key, params, outcome, received_at, processed_at, created_at, updated_at)
             select 'pnecb_fill' || g, 'callback', 'pp_payneteasy_payneteasy', 'payses_fill' || g, (3000000 + g)::text, 'payses_fill' || g,
                    'preauth', 'approved', '10.42|', '{"status":"approved"}'::jsonb, 'processed', now(), now(), now(), now()
             from generate_series(1, ?) g`,
      params: [sizes.scaleRows],
    })
    await app.call("sql", { text: "analyze payneteasy_callback" })
  }
  const empty = async () => {
    await app.call("sql", { text: "delete from payneteasy_callback" })
    await app.call("sql", { text: "vacuum analyze payneteasy_callback" })
  }
  let next = 0
  // The worker processes each callback the plugin's callbackProcessingDelayMs (a second) after the route recorded it,
  // so a phase of sequential samples (well under a second) is timed with the worker idle; it is drained after each.
  const sample = async (into: number[], count: number) => {
    for (let i = 0; i < count; i++) into.push(await timedCallback(app, genuine[next++]))
    await waitDrained(app)
  }
  const small: number[] = []
  const large: number[] = []
  await empty()
  await sample([], 4) // warm-up
  // empty → full → empty → full, each phase n samples
  for (let round = 0; round < 2; round++) {
    await empty()
    await sample(small, n)
    await fill()
    await sample(large, n)
  }
  const [{ rows }] = await app.call<any[]>("sql", { text: "select count(*)::int as rows from payneteasy_callback" })
  // How recordCallbacks finds the rows of re-sent callbacks (modules/payneteasy/callback-lookup.ts), for two keys of
  // the filler's own kind, run on the full log: each key must be one equality lookup in the unique index. The old
  // `(columns) in (…)` form passed a plain "uses an index" check while reading every row of that kind.
  const keys = [1, 2].map((g) => ["callback", String(3000000 + g), `payses_fill${g}`, "preauth", "approved", "10.42|"])
  const [{ "QUERY PLAN": [plan] }] = await app.call<any[]>("sql", {
    text: `explain (analyze, format json) ${EXISTING_CALLBACKS_SQL}`,
    params: existingCallbacksBindings(keys),
  })
  const nodes: any[] = []
  const walk = (node: any) => (nodes.push(node), (node.Plans ?? []).forEach(walk))
  walk(plan.Plan)
  const scans = nodes.filter((node) => node["Relation Name"] === "payneteasy_callback")
  const filtered = scans.reduce((sum, node) => sum + (node["Rows Removed by Filter"] ?? 0) * (node["Actual Loops"] ?? 1), 0)
  const found = plan.Plan["Actual Rows"]
  const byWholeKey = scans.length > 0 && scans.every((node) => /Index/.test(node["Node Type"]) && /client_orderid/.test(node["Index Cond"] ?? ""))
  await empty()
  const s = summarize(small)
  const l = summarize(large)
  return figure({
    figure: "scale", unit: "ms", goal: { kind: "ratio-max", limit: 1.5 },
    oursWhat: `genuine callback route time with ${rows.toLocaleString("en-US")} rows in the callback log`,
    floorWhat: "the same with an (almost) empty log",
    ours: side(l), floor: side(s),
    checks: [{
      what: `a re-sent callback's row is found by its whole key in the unique index: ${byWholeKey}, ${found} of 2 found, ${filtered} rows read and dropped`,
      ok: byWholeKey && found === 2 && filtered === 0,
    }],
  })
}

/**
 * One reconciliation tick with `watched` due watched sessions vs with 10, alternating; every watched session is a real
 * pending PaynetEasy session (approved at the gateway, so a check settles it into a Payment). Sessions not taking
 * part in a tick are aged past the discovery window and their watch rows soft-deleted, so each tick sees only its own.
 */
export async function reconciliationFigure(app: AppProcess, sizes: AppSizes): Promise<Figure> {
  const SMALL = 10
  const rounds = sizes.reconcileRounds
  // One clone set (every makeSessions call pays a store checkout and a hosted payment for its template): the first
  // `watched` clones are the large side, then ten per round for the small side, each round its own id range.
  await app.call("makeSessions", { n: sizes.watched + SMALL * (rounds + 1), tag: "RC", urls: false })
  const ids = (first: number, n: number): [string, string] => [sessionId("RC", first), sessionId("RC", first + n - 1)]
  const LARGE = ids(1, sizes.watched)
  const sql = (text: string, params: unknown[] = []) => app.call<any[]>("sql", { text, params })
  await sql(`delete from payneteasy_reconciliation`)
  await sql(
    `insert into payneteasy_reconciliation (id, session_id, provider_id, target, state, started_at, next_check_at, checks, created_at, updated_at, deleted_at)
     select 'pnerc_' || substr(id, 8), id, 'pp_payneteasy_payneteasy', '', 'pending', now(), now() - interval '1 second', 0, now(), now(), now()
     from payment_session where id like 'payses_RC%'`
  )
  const show = async ([first, last]: [string, string]) => {
    await sql(`update payment_session set created_at = now() where id between ? and ?`, [first, last])
    await sql(`update payneteasy_reconciliation set deleted_at = null, next_check_at = now() - interval '1 second' where session_id between ? and ? and state = 'pending'`, [first, last])
  }
  const hide = async ([first, last]: [string, string]) => {
    await sql(`update payment_session set created_at = now() - interval '2 hours' where id between ? and ?`, [first, last])
    await sql(`update payneteasy_reconciliation set deleted_at = now() where session_id between ? and ?`, [first, last])
  }
  const tick = async () => {
    const { ms, report } = await app.call<{ ms: number; report: any }>("reconcileTick")
    if (report.skipped) throw new Error("reconciliation tick skipped (lock held)")
    return { ms, report }
  }
  const large: number[] = []
  const small: number[] = []
  let checkedLarge = 0
  let checkedSmall = 0
  for (let round = 0; round <= rounds; round++) {
    const smallIds = ids(sizes.watched + round * SMALL + 1, SMALL)
    await hide(LARGE)
    await show(smallIds)
    const s = await tick()
    await hide(smallIds)
    await show(LARGE)
    const l = await tick()
    if (round > 0) {
      small.push(s.ms)
      large.push(l.ms)
      checkedSmall += s.report.checked
      checkedLarge += l.report.checked
    }
  }
  const [{ n }] = await sql(`select count(*)::int as n from payneteasy_reconciliation where session_id between ? and ? and state = 'pending'`, LARGE)
  await sql(`delete from payneteasy_reconciliation`)
  await hide(LARGE)
  return figure({
    figure: "reconciliation", unit: "ms", goal: { kind: "ratio-max", limit: 2 },
    oursWhat: `one reconciliation tick with ${sizes.watched.toLocaleString("en-US")} due watched sessions (${checkedLarge / rounds} checked per tick; ${n} still pending after)`,
    floorWhat: `one tick with ${SMALL} due watched sessions (${checkedSmall / rounds} checked per tick)`,
    ours: side(summarize(large)), floor: side(summarize(small)),
  })
}

/**
 * RSS growth over `memoryCallbacks` callbacks: `memoryDistinct` distinct genuine ones, each verified, logged and
 * processed (STATUS + a Payment), and the rest the gateway's redeliveries of those same callbacks (it re-sends until it
 * gets its 200; each must answer 200 and change nothing). Distinct callbacks are bounded by processing (a few dozen a
 * second on 2 shared cores), redeliveries by the route; the mix reaches 10,000 within the run's time budget, and the
 * database is checked afterwards: one Payment per distinct callback, nothing processed twice.
 */
export async function memoryFigure(app: AppProcess, sizes: AppSizes): Promise<Figure> {
  const warm = Math.min(200, Math.ceil(sizes.memoryDistinct / 4))
  const { genuine } = await app.call<{ genuine: string[] }>("makeSessions", { n: sizes.memoryDistinct + warm, tag: "MEM" })
  await settleTemplate(app)
  const statusBefore = (await app.call<Record<string, number>>("sandboxRequests"))["STATUS"] ?? 0
  // warm-up: the whole path (distinct + redelivered), then the baseline
  let non2xx = 0
  const send = async (paths: string[]) => {
    if (paths.length === 0) return
    const r = await sendPaths(app.ready.url, paths, 10)
    non2xx += r.non2xx + r.errors + r.timeouts
  }
  const warmPaths = genuine.slice(0, warm)
  await send(warmPaths)
  await waitDrained(app)
  await send(warmPaths)
  const baseline = await app.call<NodeJS.MemoryUsage>("memory")
  const workerBefore = (await app.worker.call<NodeJS.MemoryUsage>("memory")).rss
  const before = baseline.rss
  const rest = genuine.slice(warm)
  const redeliveries = Math.max(0, sizes.memoryCallbacks - rest.length)
  const chunk = Math.max(1, Math.ceil(rest.length / sizes.memoryChunks))
  let sent = 0
  for (let i = 0; i < rest.length; i += chunk) {
    const distinct = rest.slice(i, i + chunk)
    await send(distinct)
    await waitDrained(app)
    // this chunk's share of the redeliveries, cycling over its callbacks
    const share = Math.floor((redeliveries * (i + distinct.length)) / rest.length) - Math.floor((redeliveries * i) / rest.length)
    const redelivered = Array.from({ length: share }, (_, j) => distinct[j % distinct.length])
    await send(redelivered)
    sent += distinct.length + redelivered.length
  }
  await waitDrained(app)
  const final = await app.call<NodeJS.MemoryUsage>("memory")
  const workerGrowth = ((await app.worker.call<NodeJS.MemoryUsage>("memory")).rss - workerBefore) / (1024 * 1024)
  const after = final.rss
  const statusCalls = ((await app.call<Record<string, number>>("sandboxRequests"))["STATUS"] ?? 0) - statusBefore
  const [pay] = await app.call<any[]>("sql", {
    text: `select count(*)::int as payments, count(distinct payment_session_id)::int as sessions from payment where payment_session_id like 'payses_MEM%' and deleted_at is null`,
  })
  const [rows] = await app.call<any[]>("sql", {
    text: `select count(*)::int as rows, count(*) filter (where outcome = 'processed')::int as processed from payneteasy_callback where client_orderid like 'payses_MEM%' and source = 'callback'`,
  })
  const sessions = genuine.length
  const MB = 1024 * 1024
  return figure({
    figure: "memory", unit: "MB", goal: { kind: "growth-max", limit: 50 },
    oursWhat: `Medusa server process RSS after ${sent.toLocaleString("en-US")} more callbacks (${rest.length} distinct genuine, each processed; ${(sent - rest.length).toLocaleString("en-US")} redeliveries of them), after GC`,
    floorWhat: `RSS after a ${warm}-callback warm-up (and its redelivery), after GC`,
    ours: { value: after / MB }, floor: { value: before / MB },
    checks: [
      { what: `0 processed twice: ${pay.payments} payments for ${pay.sessions} of ${sessions} sessions, ${rows.rows} log rows (${rows.processed} processed), ${statusCalls} STATUS calls`,
        ok: pay.payments === sessions && pay.sessions === sessions && rows.rows === sessions && rows.processed === sessions && statusCalls === sessions, correctness: true },
      { what: `0 non-2xx: ${non2xx}`, ok: non2xx === 0, correctness: true },
      { what: `the worker (which processed them) grew ${workerGrowth.toFixed(1)} MB (≤ 50 MB)`, ok: workerGrowth <= 50 },
    ],
    note: `worker RSS growth ${workerGrowth.toFixed(1)} MB; server heap used ${(baseline.heapUsed / MB).toFixed(0)} → ${(final.heapUsed / MB).toFixed(0)} MB; ${sent.toLocaleString("en-US")} callbacks after the warm-up`,
  })
}

/**
 * What a flash sale feels: a genuine callback turned into a Payment and a completed cart by the worker (the
 * subscriber's `processCallbacks` on the row the route recorded: read under the session's lock, STATUS through the
 * provider, the Payment, the cart completed into an order, the watch closed, the outcome written) against Medusa's own
 * `processPaymentWorkflow` (action authorized) for the same kind of cart and payment: the work core does for any
 * provider's webhook (STATUS too: its cart completion authorizes the session through the provider). Both run in the
 * worker process, one of each alternately (bench/app/server.ts `paymentCost`), on real carts made through the store
 * API. The rows are written as the route writes them (its own cost is callbacks/s). Judged on the median time per
 * callback; the plugin's own SQL statements are ours minus the floor's (the same Medusa work on both sides).
 */
export async function paymentFigure(app: AppProcess, sizes: AppSizes): Promise<Figure> {
  const warm = sizes.paymentWarmups
  const n = sizes.payments + warm
  const statusBefore = (await app.call<Record<string, number>>("sandboxRequests"))["STATUS"] ?? 0
  const made = await app.call<{ carts: Array<{ cartId: string; sessionId: string; amount: number }>; orderid: string; templateSessionId: string }>("makeCarts", { n: 2 * n })
  await settleTemplate(app)
  const statusAfterSetup = (await app.call<Record<string, number>>("sandboxRequests"))["STATUS"] ?? 0
  const oursCarts = made.carts.slice(0, n)
  const floorCarts = made.carts.slice(n)
  const sql = (text: string, params: unknown[] = []) => app.call<any[]>("sql", { text, params })
  const rows = await sql(
    `insert into payneteasy_callback (id, source, provider_id, session_id, orderid, client_orderid, type, status, event_key, amount, currency, params, outcome, received_at)
     select 'pnecb_pay' || lpad(g::text, 5, '0'), 'callback', s.provider_id, s.id, ?, s.id, 'preauth', 'approved', s.amount::text || '|', s.amount::text, upper(s.currency_code),
            jsonb_build_object('status', 'approved', 'type', 'preauth', 'orderid', ?::text, 'client_orderid', s.id), 'received', now()
     from unnest(?::text[]) with ordinality as u(id, g) join payment_session s on s.id = u.id
     returning id, session_id`,
    [made.orderid, made.orderid, oursCarts.map((c) => c.sessionId)]
  )
  const rowOf = new Map(rows.map((r) => [r.session_id, r.id]))
  const pairs = oursCarts.map((c, i) => ({ callbackId: rowOf.get(c.sessionId)!, sessionId: floorCarts[i].sessionId, amount: floorCarts[i].amount }))
  await app.worker.call("paymentCost", { pairs: pairs.slice(0, warm) })
  const r = await app.worker.call<{ ours: any[]; floor: any[]; statements: Record<"ours" | "floor", Array<{ text: string; n: number }>> }>("paymentCost", { pairs: pairs.slice(warm) })
  const statusCalls = ((await app.call<Record<string, number>>("sandboxRequests"))["STATUS"] ?? 0) - statusAfterSetup
  const sessions = made.carts.map((c) => c.sessionId)
  const [db] = await sql(
    `select (select count(*)::int from payment where payment_session_id = any(?) and deleted_at is null) as payments,
            (select count(*)::int from order_cart where cart_id = any(?) and deleted_at is null) as orders,
            (select count(*)::int from payneteasy_callback where id = any(?) and outcome = 'processed') as processed`,
    [sessions, made.carts.map((c) => c.cartId), rows.map((x) => x.id)]
  )
  const ms = (side: any[]) => summarize(side.map((x) => x.ms))
  const avg = (side: any[], key: string) => side.reduce((a, x) => a + x[key], 0) / side.length
  const oursSql = avg(r.ours, "sql")
  const floorSql = avg(r.floor, "sql")
  const own = oursSql - floorSql
  // each statement's count per callback, ours against the floor's, where they differ: what the plugin adds
  const floorN = new Map(r.statements.floor.map((x) => [x.text, x.n]))
  const oursN = new Map(r.statements.ours.map((x) => [x.text, x.n]))
  const added = [...new Set([...oursN.keys(), ...floorN.keys()])]
    .map((text) => ({ text, ours: oursN.get(text) ?? 0, floor: floorN.get(text) ?? 0 }))
    .filter((x) => x.ours !== x.floor)
    .sort((a, b) => b.ours - b.floor - (a.ours - a.floor))
  const pluginTables = r.statements.ours.filter((x) => /payneteasy_/.test(x.text)).reduce((a, x) => a + x.n, 0)
  const o = ms(r.ours)
  const f = ms(r.floor)
  void statusBefore
  return figure({
    figure: "callback → Payment", unit: "ms", goal: { kind: "ratio-max", limit: 1.3 },
    oursWhat: `worker: a recorded genuine callback → STATUS → Payment → cart completed (processCallbacks, as the subscriber runs it), ${r.ours.length} callbacks`,
    floorWhat: `worker: Medusa's processPaymentWorkflow (authorized) for the same kind of cart and payment, ${r.floor.length} carts, alternating`,
    ours: side(o), floor: side(f),
    checks: [
      { what: `every cart an order and one Payment each: ${db.payments} payments, ${db.orders} orders for ${sessions.length} carts; ${db.processed} of ${rows.length} callbacks processed; ${statusCalls} STATUS calls for ${sessions.length}`,
        ok: db.payments === sessions.length && db.orders === sessions.length && db.processed === rows.length && statusCalls === sessions.length, correctness: true },
      { what: `the plugin's own SQL statements per callback (ours − floor) ≤ 10: ${own.toFixed(1)}`, ok: own <= 10 },
    ],
    note: `${(1000 / o.median).toFixed(1)} vs ${(1000 / f.median).toFixed(1)} callbacks/s, one at a time; worker CPU per callback ${avg(r.ours, "cpuMs").toFixed(1)} ms vs ${avg(r.floor, "cpuMs").toFixed(1)} ms; SQL statements per callback ${oursSql.toFixed(1)} vs ${floorSql.toFixed(1)} (the plugin's own ${own.toFixed(1)}, ${pluginTables.toFixed(1)} of them on payneteasy_ tables); per-callback statement counts ours ${r.ours.map((x) => x.sql).join(", ")}, floor ${r.floor.map((x) => x.sql).join(", ")}`,
    detail: { statementsAdded: added, statements: r.statements },
  })
}

/**
 * Growth: what the callback log, the reconciliation tick and the attention queue cost with 10 k, 100 k (and, in the
 * full run, 1 M) stored rows against 1 k, in one run: the callback log and the reconciliation table are filled with
 * settled history (one INSERT … SELECT generate_series each, processed callbacks and final watches, as a store
 * accumulates them), step by step upwards; at each step the 1 k side is measured in blocks alternating with it, on
 * twin tables holding the 1 k rows swapped in by renaming.
 * The attention queue holds the same 33 items (20 flagged or failed callbacks, 3 chargebacks, 10 flagged watches)
 * at every size. Costs: the route's time for a genuine callback (timed from here), one reconciliation tick with
 * nothing due and one attention-queue read (attentionItems, in the server process). Judged at the largest size on
 * medians, goal ≤ 1.2×; the plans of the tick's and the queue's statements on the plugin's tables at that size go
 * into the note (EXPLAIN (ANALYZE, BUFFERS); writes in a transaction rolled back), with the callback route's own.
 */
export async function growthFigures(app: AppProcess, sizes: AppSizes): Promise<Figure[]> {
  const n = sizes.growthSamples
  const steps = sizes.growthRows
  const base = steps[0]
  const blocks = 4
  const { genuine } = await app.call<{ genuine: string[] }>("makeSessions", { n: (steps.length - 1) * 2 * blocks * Math.ceil(n / blocks) + 5, tag: "GR" })
  await settleTemplate(app)
  const sql = (text: string, params: unknown[] = []) => app.call<any[]>("sql", { text, params })
  const clear = async () => {
    await sql(`delete from payneteasy_callback where id like 'pnecb_gf%'`)
    await sql(`delete from payneteasy_reconciliation where id like 'pnerc_gf%'`)
  }
  await clear()
  await sql(`delete from payneteasy_callback where id like 'pnecb_ga%'`)
  await sql(`delete from payneteasy_reconciliation where id like 'pnerc_ga%'`)
  // the attention queue's fixed content
  await sql(
    `insert into payneteasy_callback (id, source, provider_id, session_id, orderid, client_orderid, type, status, event_key, params, outcome, outcome_detail, received_at, processed_at)
     select 'pnecb_ga' || g, 'callback', 'pp_payneteasy_payneteasy', 'payses_ga' || g, (5000000 + g)::text, 'payses_ga' || g,
            case when g > 20 then 'chargeback' else 'sale' end, 'approved', '', '{}'::jsonb,
            case when g > 20 then 'processed' when g % 2 = 0 then 'flagged' else 'failed' end, 'bench', now() - g * interval '1 minute', now()
     from generate_series(1, 23) g`
  )
  await sql(
    `insert into payneteasy_reconciliation (id, session_id, provider_id, target, state, started_at, next_check_at, last_checked_at, checks, note)
     select 'pnerc_ga' || g, 'payses_ga_w' || g, 'pp_payneteasy_payneteasy', '', 'flagged', now() - interval '2 hours', now(), now() - g * interval '1 minute', 20, 'bench'
     from generate_series(1, 10) g`
  )
  let stored = 0
  const fillTo = async (rows: number) => {
    if (rows > stored) {
      await sql(
        `insert into payneteasy_callback (id, source, provider_id, session_id, orderid, client_orderid, type, status, event_key, params, outcome, outcome_detail, received_at, processed_at, created_at, updated_at)
         select 'pnecb_gf' || g, 'callback', 'pp_payneteasy_payneteasy', 'payses_gf' || g, (6000000 + g)::text, 'payses_gf' || g,
                case when g % 2 = 0 then 'sale' else 'preauth' end, 'approved', '10.42|', '{"status":"approved"}'::jsonb, 'processed',
                'authorized: authorized', t, t, t, t
         from generate_series(?::int, ?::int) g, lateral (select now() - interval '2 days' - (g % 2592000) * interval '1 second' as t) at`,
        [stored + 1, rows]
      )
      await sql(
        `insert into payneteasy_reconciliation (id, session_id, provider_id, target, state, started_at, next_check_at, last_checked_at, checks, last_status, created_at, updated_at)
         select 'pnerc_gf' || g, 'payses_gf' || g, 'pp_payneteasy_payneteasy', '', 'final', t, t, t, 3, 'authorized', t, t
         from generate_series(?::int, ?::int) g, lateral (select now() - interval '2 days' - (g % 2592000) * interval '1 second' as t) at`,
        [stored + 1, rows]
      )
      stored = rows
    }
    // As autovacuum leaves a store's tables: the rows just bulk-inserted are vacuumed (visibility map set) and analyzed,
    // on both sides alike (a table not yet vacuumed makes every index-only scan visit the heap).
    await sql("vacuum analyze payneteasy_callback")
    await sql("vacuum analyze payneteasy_reconciliation")
  }
  type Costs = { route: number[]; tick: number[]; attention: number[] }
  /** per size: its own costs, and the 1 k side's measured alternately with it (the twin tables swapped in) */
  const at = new Map<number, { big: Costs; small: Costs }>()
  const costs = () => ({ route: [], tick: [], attention: [] }) as Costs
  let next = 0
  let plans: Array<{ what: string; sql: string; plan: string }> = []
  const sample = async (into: Costs, count: number, explain: boolean) => {
    for (let i = 0; i < count; i++) into.route.push(await timedCallback(app, genuine[next++]))
    await waitDrained(app)
    const r = await app.call<{ tick: number[]; attention: number[]; plans?: typeof plans }>("growthCosts", { samples: count, explain })
    into.tick.push(...r.tick)
    into.attention.push(...r.attention)
    if (r.plans) plans = r.plans
    if (explain) {
      // one more genuine callback, untimed, its statements on the callback log explained (ANALYZE, BUFFERS; writes rolled back)
      await app.call("captureSql")
      await timedCallback(app, genuine[next++])
      plans.push(...(await app.call<typeof plans>("explainCaptured", { what: "route" })))
      await waitDrained(app)
    }
  }
  // The 1 k side is a twin of each table holding the 1 k rows, swapped in by renaming (three renames in one
  // transaction, with the worker drained): the two sizes are measured in alternating blocks at every step, so a
  // change of the shared machine's speed between steps (a 1 k phase before and after read 0.5–6× apart under load)
  // falls on both sides alike.
  const TWINS = ["payneteasy_callback", "payneteasy_reconciliation"]
  let swapped = false
  const swap = async () => {
    await sql(`begin; ${TWINS.map((t) => `alter table ${t} rename to ${t}_gtmp; alter table ${t}_gsmall rename to ${t}; alter table ${t}_gtmp rename to ${t}_gsmall;`).join(" ")} commit;`)
    swapped = !swapped
  }
  const t0 = Date.now()
  try {
    // warm-up on the smallest size, untimed; then the twins are made from it
    await fillTo(base)
    for (let i = 0; i < 4; i++) await timedCallback(app, genuine[next++])
    await waitDrained(app)
    await app.call("growthCosts", { samples: 2 })
    for (const t of TWINS) {
      await sql(`drop table if exists ${t}_gsmall`)
      await sql(`create table ${t}_gsmall (like ${t} including all)`)
      await sql(`insert into ${t}_gsmall select * from ${t}`)
      await sql(`vacuum analyze ${t}_gsmall`)
    }
    for (const rows of steps.slice(1)) {
      await fillTo(rows)
      const side = { big: costs(), small: costs() }
      at.set(rows, side)
      const top = rows === steps[steps.length - 1]
      // blocks of ceil(n / blocks) samples a side, alternating which goes first
      for (let b = 0; b < blocks; b++) {
        const count = Math.ceil(n / blocks)
        const order = b % 2 === 0 ? (["small", "big"] as const) : (["big", "small"] as const)
        for (const which of order) {
          if ((which === "small") !== swapped) await swap()
          await sample(side[which], count, top && which === "big" && b === blocks - 1)
        }
      }
      if (swapped) await swap()
    }
  } finally {
    if (swapped) await swap()
    for (const t of TWINS) await sql(`drop table if exists ${t}_gsmall`)
    await clear()
    await sql(`delete from payneteasy_callback where id like 'pnecb_ga%'`)
    await sql(`delete from payneteasy_reconciliation where id like 'pnerc_ga%'`)
  }
  const seconds = (Date.now() - t0) / 1000
  const top = steps[steps.length - 1]
  const k = (rows: number) => (rows >= 1_000_000 ? `${rows / 1_000_000} M` : `${rows / 1000} k`)
  const one = (name: string, key: keyof Costs, what: string, planOf?: string): Figure => {
    const floor = summarize(at.get(top)!.small[key])
    const ours = summarize(at.get(top)!.big[key])
    const byStep = steps.slice(1).map((rows) => `${k(rows)} ${(summarize(at.get(rows)!.big[key]).median / summarize(at.get(rows)!.small[key]).median).toFixed(2)}×`).join(", ")
    const planNote = planOf ? `; plans at ${k(top)}: ${plans.filter((p) => p.what === planOf).map((p) => `[${p.sql.slice(0, 90)}…] ${p.plan}`).join(" | ")}` : ""
    return figure({
      figure: name, unit: "ms", goal: { kind: "ratio-max", limit: 1.2 },
      oursWhat: `${what} with ${k(top)} stored rows (callback log and reconciliation table each)`,
      floorWhat: `the same with ${k(base)} (twin tables swapped in by renaming, in blocks alternating with ${k(top)}; ${floor.n} samples)`,
      ours: side(ours), floor: side(floor),
      note: `ratio against ${k(base)} by size: ${byStep}; the growth phases took ${seconds.toFixed(0)} s${planNote}`,
      detail: planOf ? { plans: plans.filter((p) => p.what === planOf) } : undefined,
    })
  }
  return [
    one("growth: callback log", "route", "a genuine callback's route time (verify, record, 200)", "route"),
    one("growth: reconciliation tick", "tick", "one reconciliation tick with nothing due", "tick"),
    one("growth: attention queue", "attention", "one read of the attention queue (33 items)", "attention"),
  ]
}
