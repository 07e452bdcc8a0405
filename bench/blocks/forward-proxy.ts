// A minimal forward HTTP proxy on loopback, one per egress identity of the bench. It takes both
// forms a client may use: absolute-form requests (`GET http://host/path`) and CONNECT tunnels
// (undici's ProxyAgent tunnels plain-http targets too unless told `proxyTunnel: false`). It
// forwards only to the hosts it was given, so it is no open proxy even on loopback.
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`, for PROXY_URLS. */
  url: string;
  /** Absolute-form requests forwarded and CONNECT tunnels opened since the last reset. */
  traffic(): { forwarded: number; tunnels: number };
  resetTraffic(): void;
  close(): Promise<void>;
}

// Headers of one hop only (RFC 9110 §7.6.1): never passed on.
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

export async function startForwardProxy(allowedHosts: readonly string[]): Promise<ForwardProxy> {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  const upstreamAgent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  let forwarded = 0;
  let tunnels = 0;

  const server: Server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form request expected');
      return;
    }
    if (target.protocol !== 'http:' || !allowed.has(target.host)) {
      res.writeHead(403).end('host not served by this proxy');
      return;
    }
    forwarded += 1;
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: forwardedHeaders(req.headers),
        agent: upstreamAgent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwardedHeaders(answer.headers));
        answer.pipe(res);
      },
    );
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    const host = (req.url ?? '').toLowerCase();
    if (!allowed.has(host)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    tunnels += 1;
    const [hostname, port] = [host.slice(0, host.lastIndexOf(':')), Number(host.slice(host.lastIndexOf(':') + 1))];
    const upstream = connect(port, hostname, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    traffic: () => ({ forwarded, tunnels }),
    resetTraffic: () => {
      forwarded = 0;
      tunnels = 0;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      upstreamAgent.destroy();
      await closed;
    },
  };
}
