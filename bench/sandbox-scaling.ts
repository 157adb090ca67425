/**
 * Benchmark: the sandbox handles each request in constant time with respect to the number of stored transactions
 * (issue 3), so it is never what another benchmark measures.
 *
 * It starts the sandbox, measures the median latency of SALE + STATUS over real HTTP (through the gateway client,
 * keep-alive) with a small store, grows the store by `GROW` transactions, measures again, and prints the ratio
 * large/small. A ratio near 1.0 means O(1) per request; a linear scan would show a ratio near GROW/SMALL.
 * Also prints heap bytes per stored transaction. Run: `npm run bench` (no timed assertions anywhere: it only prints).
 */
import { PaynetEasyClient } from "../src/gateway"
import { DEFAULT_SANDBOX_MERCHANT, startSandbox } from "../src/sandbox"

const SMALL = 200
const GROW = Number(process.env.BENCH_GROW ?? 20000)
const SAMPLES = 400

const saleFields = (clientOrderId: string) => ({
  client_orderid: clientOrderId, order_desc: "bench", amount: "10.42", currency: "EUR", address1: "1 Main St",
  city: "Berlin", zip_code: "10115", country: "DE", phone: "+49301234567", email: "bench@example.com",
  ipaddress: "127.0.0.1", card_printed_name: "BENCH USER", credit_card_number: "4444555566661111",
  expire_month: "12", expire_year: "2099", cvv2: "123", redirect_url: "http://127.0.0.1:9/return",
})

let seq = 0
async function fill(client: PaynetEasyClient, n: number): Promise<void> {
  // Bounded concurrency keeps the 2-core machine responsive while the store grows.
  const workers = Array.from({ length: 8 }, async () => {
    while (n-- > 0) await client.request("SALE", saleFields(`fill-${++seq}`))
  })
  await Promise.all(workers)
}

async function medianRoundTripMs(client: PaynetEasyClient): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < SAMPLES; i++) {
    const id = `probe-${++seq}`
    const t0 = process.hrtime.bigint()
    const sale = await client.request("SALE", saleFields(id))
    await client.request("STATUS", { client_orderid: id, orderid: sale["paynet-order-id"] })
    times.push(Number(process.hrtime.bigint() - t0) / 1e6)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, processingMs: 60_000, logger: () => undefined })
  const client = new PaynetEasyClient({
    baseUrl: sandbox.url, endpointId: DEFAULT_SANDBOX_MERCHANT.endpointIds[0],
    login: DEFAULT_SANDBOX_MERCHANT.login, controlKey: DEFAULT_SANDBOX_MERCHANT.controlKey,
  })
  try {
    await fill(client, SMALL)
    await medianRoundTripMs(client) // warm-up (JIT, sockets)
    const small = await medianRoundTripMs(client)
    global.gc?.()
    const heapBefore = process.memoryUsage().heapUsed
    await fill(client, GROW)
    global.gc?.()
    const heapAfter = process.memoryUsage().heapUsed
    const large = await medianRoundTripMs(client)
    const stored = sandbox.control.transactions().length
    console.log(`stored transactions: small=${SMALL + SAMPLES * 2} large=${stored}`)
    console.log(`median SALE+STATUS round trip: small=${small.toFixed(3)} ms large=${large.toFixed(3)} ms`)
    console.log(`ratio large/small: ${(large / small).toFixed(2)} (1.00 = constant time; a linear scan would be ~${(stored / (SMALL + SAMPLES * 2)).toFixed(0)})`)
    console.log(`heap per stored transaction: ~${Math.round((heapAfter - heapBefore) / GROW)} bytes${global.gc ? "" : " (run with --expose-gc for a steadier figure)"}`)
  } finally {
    await client.close()
    await sandbox.close()
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
