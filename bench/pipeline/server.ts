// The marketplace simulator on loopback, full-size pages, no faults (so no throttling, blocks or
// slow answers), in a process of its own. Prints its URL; answers "cpu" on stdin with its CPU time.
// Args: [cached|live] — `cached` (default) keeps each rendered page and answers repeats from memory,
// so the simulator's rendering does not take CPU from the crawlers on the same cores.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator } from '@crawl/marketplace-simulator';

const mode = process.argv[2] === 'live' ? 'live' : 'cached';
const simulator = await createSimulator({ pageSize: 'full', faults: { builtInRules: false } });
let requests = 0;
let url = simulator.url;
let front: ReturnType<typeof createServer> | undefined;
if (mode === 'cached') {
  const pages = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  front = createServer(async (req, res) => {
    requests += 1;
    const path = req.url ?? '/';
    let page = pages.get(path);
    if (!page) {
      const response = await fetch(simulator.url + path);
      const headers: Record<string, string> = { 'content-type': response.headers.get('content-type') ?? 'text/html; charset=utf-8' };
      page = { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
      if (response.ok) pages.set(path, page);
    }
    res.writeHead(page.status, { ...page.headers, 'content-length': String(page.body.length), 'cache-control': 'no-store' });
    res.end(page.body);
  });
  await new Promise<void>((resolve) => front?.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
}
console.log(JSON.stringify({ url, mode }));
process.stdin.setEncoding('utf8').on('data', (line: string) => {
  if (line.trim() === 'cpu') {
    const { user, system } = process.cpuUsage();
    console.log(JSON.stringify({ cpuMs: (user + system) / 1000, requests: mode === 'cached' ? requests : simulator.stats().total }));
  }
});
process.stdin.on('end', () => {
  front?.close();
  void simulator.close().then(() => process.exit(0));
});
