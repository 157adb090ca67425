/**
 * A fetch-based stand-in for the axios instance the harness's seeding helpers expect (integration-tests/helpers/store.ts
 * `Api`), so the demo reuses them against its own server. Non-2xx answers throw with the status and Medusa's message.
 */
import type { Api } from "../../integration-tests/helpers/store"

export function fetchApi(baseUrl: string): Api {
  async function call<T>(method: string, url: string, body?: unknown, config?: { headers?: Record<string, string> }) {
    const res = await fetch(new URL(url, baseUrl), {
      method,
      headers: { "content-type": "application/json", accept: "application/json", ...(config?.headers ?? {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    const data = text ? safeJson(text) : undefined
    if (!res.ok) {
      const message = (data as { message?: string } | undefined)?.message ?? text.slice(0, 200)
      throw Object.assign(new Error(`${method} ${url}: ${message}`), { status: res.status })
    }
    return { status: res.status, data: data as T }
  }
  return {
    get: (url, config) => call("GET", url, undefined, config),
    post: (url, body, config) => call("POST", url, body ?? {}, config),
    delete: (url, config) => call("DELETE", url, undefined, config),
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
