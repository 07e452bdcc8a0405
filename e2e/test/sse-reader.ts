/** One Server-Sent Event as a client sees it, or a comment line (`: keep-alive`). */
export type SseItem = { kind: 'event'; id: string | undefined; event: string; data: any } | { kind: 'comment'; text: string } | { kind: 'retry'; ms: number };

export interface SseConnection {
  status: number;
  headers: Headers;
  /** Everything read so far, in order. */
  items: SseItem[];
  events(): Array<Extract<SseItem, { kind: 'event' }>>;
  /** Resolves when the server closed the stream. */
  closed: Promise<void>;
  /** Waits until `predicate` holds for what was read (or the stream closed without it). */
  until(predicate: (items: SseItem[]) => boolean, timeoutMs?: number): Promise<void>;
  abort(): void;
}

/** Reads an event stream with fetch, parsing it line by line as the EventSource spec does. */
export async function openEvents(url: string, headers: Record<string, string>): Promise<SseConnection> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const items: SseItem[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  const closed = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    let current: { id?: string; event?: string; data: string[] } = { data: [] };
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (current.data.length > 0) {
              items.push({ kind: 'event', id: current.id, event: current.event ?? 'message', data: JSON.parse(current.data.join('\n')) });
            }
            current = { data: [] };
          } else if (line.startsWith(':')) {
            items.push({ kind: 'comment', text: line.slice(1).trim() });
          } else {
            const colon = line.indexOf(':');
            const field = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') current.data.push(value);
            else if (field === 'id') current.id = value;
            else if (field === 'event') current.event = value;
            else if (field === 'retry') items.push({ kind: 'retry', ms: Number(value) });
          }
          newline = buffer.indexOf('\n');
        }
        notify();
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      notify();
    }
  })();
  let done = false;
  void closed.finally(() => {
    done = true;
    notify();
  });
  return {
    status: response.status,
    headers: response.headers,
    items,
    events: () => items.filter((item): item is Extract<SseItem, { kind: 'event' }> => item.kind === 'event'),
    closed,
    abort: () => controller.abort(),
    until(predicate, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`stream condition not met within ${timeoutMs} ms; read: ${JSON.stringify(items).slice(0, 2_000)}`));
        }, timeoutMs);
        const check = () => {
          if (predicate(items) || done) {
            clearTimeout(timer);
            waiters.delete(check);
            if (predicate(items)) resolve();
            else reject(new Error(`stream closed before the condition held; read: ${JSON.stringify(items).slice(0, 2_000)}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
