/** The part of autocannon 8's API the bench uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      url: string
      connections?: number
      duration?: number
      amount?: number
      requests?: Array<{ method?: string; path?: string; setupRequest?: (req: any, context?: any) => any }>
    }
    interface Histogram {
      average: number
      mean: number
      p50: number
      p99: number
      total: number
    }
    interface Result {
      requests: Histogram
      latency: Histogram
      duration: number
      errors: number
      timeouts: number
      non2xx: number
      statusCodeStats?: Record<string, { count: number }>
    }
    /** The running instance: emits "response" once per response (client, statusCode, bytes, responseTime). */
    interface Instance {
      on(event: "response", listener: (...args: unknown[]) => void): Instance
    }
  }
  function autocannon(opts: autocannon.Options, cb: (err: Error | null, result: autocannon.Result) => void): autocannon.Instance
  export = autocannon
}
