/**
 * Cancellable timers for the sandbox's own scheduling (transactions leaving `processing`, callback retries).
 * `cancelAll()` (reset / close) clears every pending timer and bumps the generation, so work scheduled before a
 * reset never runs after it, even when it was already past its timer (e.g. an in-flight callback delivery).
 */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>()
  private gen = 0

  /** Increases on every cancelAll(); compare before acting on the result of asynchronous work. */
  get generation(): number {
    return this.gen
  }

  later(ms: number, fn: () => void): void {
    const gen = this.gen
    const t = setTimeout(() => {
      this.pending.delete(t)
      if (gen === this.gen) fn()
    }, ms)
    this.pending.add(t)
  }

  cancelAll(): void {
    this.gen++
    for (const t of this.pending) clearTimeout(t)
    this.pending.clear()
  }
}
