// A queue between callbacks (a WebSocket's messages) and an async
// generator: `push` and `close` from the callbacks, `take` from the
// generator. What a slow reader leaves here is bounded by the server: a
// WebSocket is closed once 1 MiB sits unacknowledged (§12).

export class Queue<T> {
  private readonly items: T[] = [];
  private waiting: { resolve: (value: T | undefined) => void; reject: (error: unknown) => void } | undefined;
  private ended: { error?: unknown } | undefined;

  push(item: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve(item);
    } else {
      this.items.push(item);
    }
  }

  /** Ends the queue after what it holds: `take` then answers `undefined`, or throws `error`. */
  close(error?: unknown): void {
    if (this.ended) return;
    this.ended = error === undefined ? {} : { error };
    if (this.waiting) {
      const { resolve, reject } = this.waiting;
      this.waiting = undefined;
      if (error === undefined) resolve(undefined);
      else reject(error);
    }
  }

  take(): Promise<T | undefined> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    if (this.ended) return this.ended.error === undefined ? Promise.resolve(undefined) : Promise.reject(this.ended.error);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
