import { startTestService, type TestService, type TestUser } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, type Receiver, startReceiver } from './seeded-organization.ts';

/**
 * URLs that must never make the service fetch anything but the marketplace, through the all-in-one
 * with its default rules (only https is lifted for webhooks, so each address form is refused for
 * what it points at, not for its scheme). Names a resolver maps to private addresses (DNS
 * rebinding at create, at delivery) are covered with a fake resolver in
 * services/catalog/src/features/webhooks/{webhooks.routes,address-guard,http-sender}.test.ts.
 */

const ASIN = 'B000000001';

/** Details targets outside the storefront allowlist, in the forms an attacker would try. */
const DETAILS_TARGETS: Readonly<Record<string, string>> = {
  'another host': `https://evil.example/dp/${ASIN}`,
  'another host over http': `http://evil.example/dp/${ASIN}`,
  'storefront as userinfo': `https://amazon.com@evil.example/dp/${ASIN}`,
  'storefront as user and password': `https://amazon.com:x@evil.example/dp/${ASIN}`,
  'storefront userinfo on the storefront': `https://user:pw@www.amazon.com/dp/${ASIN}`,
  'storefront after a fragment': `https://evil.example#@amazon.com/dp/${ASIN}`,
  'storefront after a backslash': `https://evil.example\\@amazon.com/dp/${ASIN}`,
  'storefront after a query': `https://evil.example?@amazon.com/dp/${ASIN}`,
  'storefront as a subdomain': `https://amazon.com.evil.example/dp/${ASIN}`,
  'schemeless storefront as a subdomain': `amazon.com.evil.example/dp/${ASIN}`,
  'storefront suffix': `https://evilamazon.com/dp/${ASIN}`,
  'unknown storefront subdomain': `https://images.amazon.com/dp/${ASIN}`,
  'unknown storefront TLD': `https://amazon.evil/dp/${ASIN}`,
  'storefront with a port': `https://www.amazon.com:8443/dp/${ASIN}`,
  'storefront with port 80 on https': `https://www.amazon.com:80/dp/${ASIN}`,
  loopback: `http://127.0.0.1/dp/${ASIN}`,
  'loopback short form': `http://127.1/dp/${ASIN}`,
  'loopback decimal': `http://2130706433/dp/${ASIN}`,
  'loopback octal': `http://0177.0.0.1/dp/${ASIN}`,
  'loopback hex': `http://0x7f000001/dp/${ASIN}`,
  'loopback dotted hex': `http://0x7f.0x0.0x0.0x1/dp/${ASIN}`,
  'unspecified address': `http://0.0.0.0/dp/${ASIN}`,
  'IPv6 loopback': `http://[::1]/dp/${ASIN}`,
  'IPv4-mapped IPv6 loopback': `http://[::ffff:127.0.0.1]/dp/${ASIN}`,
  'IPv6 unique local': `http://[fd00::1]/dp/${ASIN}`,
  'metadata address': `http://169.254.169.254/dp/${ASIN}`,
  'metadata name': `http://metadata.google.internal/dp/${ASIN}`,
  'private address': `http://10.0.0.1/dp/${ASIN}`,
  localhost: `http://localhost/dp/${ASIN}`,
  'localhost with a port': `http://localhost:4010/dp/${ASIN}`,
  'localhost with a trailing dot': `http://localhost./dp/${ASIN}`,
  'storefront with two trailing dots': `https://amazon.com../dp/${ASIN}`,
  'another host with a trailing dot': `https://evil.example./dp/${ASIN}`,
  'Cyrillic a lookalike': `https://www.\u0430mazon.com/dp/${ASIN}`,
  'Greek omicron lookalike': `https://www.amaz\u03bfn.com/dp/${ASIN}`,
  'punycode lookalike': `https://www.xn--mazon-3ve.com/dp/${ASIN}`,
  'zero-width joiner in the host': `https://www.ama\u200dzon.com.evil.example/dp/${ASIN}`,
  'encoded dot to another host': `https://evil%2Eexample/dp/${ASIN}`,
  'encoded at sign in the host': `https://amazon.com%40evil.example/dp/${ASIN}`,
  'encoded slash before the at sign': `https://amazon.com%2F@evil.example/dp/${ASIN}`,
  'encoded NUL in the host': `https://www.amazon.com%00.evil.example/dp/${ASIN}`,
  'protocol-relative': `//evil.example/dp/${ASIN}`,
  'scheme without slashes': `https:evil.example/dp/${ASIN}`,
  'file scheme': `file:///etc/passwd?/dp/${ASIN}`,
  'ftp scheme': `ftp://www.amazon.com/dp/${ASIN}`,
  'gopher scheme': `gopher://www.amazon.com/dp/${ASIN}`,
  'ws scheme': `ws://www.amazon.com/dp/${ASIN}`,
  'data scheme': `data:text/html,/dp/${ASIN}`,
  'javascript scheme': `javascript:alert(1)//dp/${ASIN}`,
  'view-source wrapper': `view-source:https://www.amazon.com/dp/${ASIN}`,
  'leading whitespace to another host': ` \thttps://evil.example/dp/${ASIN}`,
};

describe('SSRF through the all-in-one', () => {
  let svc: TestService;
  let receiver: Receiver;
  let user: TestUser;
  let projectId: string;
  let webhookId: string;
  let creditsBefore: unknown;
  const as = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => svc.request({ method, url, token: user.token, body });

  beforeAll(async () => {
    receiver = await startReceiver();
    svc = await startTestService({ env: { WEBHOOK_REQUIRE_HTTPS: 'false', SCHEDULER_TICK_MS: '3600000' } });
    user = await svc.registerUser();
    projectId = (await as('POST', '/projects', { name: 'ssrf' })).body.data.id;
    // A public literal needs no DNS; disabled, so nothing is ever sent to it.
    const webhook = await as('POST', `/projects/${projectId}/webhooks`, { url: 'http://93.184.216.34/hook', enabled: false });
    expect(webhook.status).toBe(201);
    webhookId = webhook.body.data.id;
    creditsBefore = (await as('GET', '/usage')).body.data.credits;
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it('accepts the storefront forms (the control for the refusals below)', async () => {
    const res = await as('POST', `/projects/${projectId}/jobs`, {
      type: 'details',
      targets: [ASIN, `https://www.amazon.com/dp/${ASIN}`, `https://www.amazon.de/x/dp/B000000002/ref=y`, `www.amazon.co.uk/dp/B000000003`],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.targets.map((t: { asin: string }) => t.asin)).toEqual([ASIN, 'B000000002', 'B000000003']);
    expect((await as('POST', `/jobs/${res.body.data.id}/cancel`)).status).toBe(200);
    creditsBefore = (await as('GET', '/usage')).body.data.credits;
  });

  it.each(Object.entries(DETAILS_TARGETS))('refuses a details target of %s with 400', async (_label, target) => {
    const res = await as('POST', `/projects/${projectId}/jobs`, { type: 'details', targets: [ASIN, target] });
    expectEnvelope(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.message).toContain('targets[1]');
  });

  it('refuses the same targets in a schedule crawl config', async () => {
    for (const target of Object.values(DETAILS_TARGETS)) {
      const res = await as('POST', `/projects/${projectId}/schedules`, { cron: '0 6 * * *', crawlConfig: { type: 'details', targets: [target] } });
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
    }
  });

  /** Webhook URLs that reach this host, private networks or cloud metadata. `{port}` is the local receiver. */
  const webhookUrls = (port: number): Readonly<Record<string, string>> => ({
    loopback: `http://127.0.0.1:${port}/h`,
    'loopback short form': `http://127.1:${port}/h`,
    'loopback decimal': `http://2130706433:${port}/h`,
    'loopback octal': `http://0177.0.0.1:${port}/h`,
    'loopback hex': `http://0x7f000001:${port}/h`,
    'loopback elsewhere in 127/8': `http://127.42.0.7:${port}/h`,
    'unspecified address': `http://0.0.0.0:${port}/h`,
    zero: `http://0:${port}/h`,
    'IPv6 loopback': `http://[::1]:${port}/h`,
    'IPv6 loopback written out': `http://[0:0:0:0:0:0:0:1]:${port}/h`,
    'IPv6 unspecified': `http://[::]:${port}/h`,
    'IPv4-mapped loopback': `http://[::ffff:127.0.0.1]:${port}/h`,
    'IPv4-mapped loopback in hex': `http://[::ffff:7f00:1]:${port}/h`,
    'NAT64 loopback': `http://[64:ff9b::7f00:1]:${port}/h`,
    '6to4 loopback': `http://[2002:7f00:1::1]:${port}/h`,
    localhost: `http://localhost:${port}/h`,
    'localhost with a trailing dot': `http://localhost.:${port}/h`,
    'localhost in capitals': `http://LOCALHOST:${port}/h`,
    'a localhost subdomain': `http://hooks.localhost:${port}/h`,
    'a local name without a dot': `http://vm:${port}/h`,
    'metadata address': 'http://169.254.169.254/latest/meta-data/',
    'metadata address, IPv4-mapped': 'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'metadata address in decimal': 'http://2852039166/latest/meta-data/',
    'metadata name': 'http://metadata.google.internal/computeMetadata/v1/',
    'metadata short name': 'http://metadata/computeMetadata/v1/',
    'AWS IPv6 metadata': 'http://[fd00:ec2::254]/latest/meta-data/',
    'link-local': 'http://169.254.1.1/h',
    'IPv6 link-local': 'http://[fe80::1]/h',
    'IPv6 link-local with a zone': 'http://[fe80::1%25eth0]/h',
    '10/8': 'http://10.0.0.1/h',
    '10/8 upper end': 'http://10.255.255.254/h',
    '172.16/12': 'http://172.16.0.1/h',
    '172.16/12 upper end': 'http://172.31.255.254/h',
    '192.168/16': 'http://192.168.1.1/h',
    'carrier-grade NAT': 'http://100.64.0.1/h',
    'fc00::/7 (fc)': 'http://[fc00::1]/h',
    'fc00::/7 (fd)': 'http://[fdff:ffff::1]/h',
    multicast: 'http://224.0.0.1/h',
    broadcast: 'http://255.255.255.255/h',
    'an internal name': 'http://db.internal/h',
    'an mDNS name': 'http://printer.local/h',
    'credentials on a public address': 'http://user:pw@93.184.216.34/h',
    'a fragment': 'http://93.184.216.34/h#x',
    'file scheme': 'file:///etc/passwd',
    'gopher scheme': 'gopher://93.184.216.34/h',
    relative: '/internal/catalog/audit',
  });

  it('refuses webhook targets on loopback, private, link-local and metadata addresses: 400, nothing stored, nothing sent', async () => {
    for (const [label, url] of Object.entries(webhookUrls(receiver.port))) {
      const created = await as('POST', `/projects/${projectId}/webhooks`, { url, enabled: true });
      expect(created.status, `create ${label}: ${created.text}`).toBe(400);
      expectEnvelope(created, 400, 'VALIDATION_ERROR');
      const updated = await as('PATCH', `/webhooks/${webhookId}`, { url, enabled: true });
      expect(updated.status, `update ${label}: ${updated.text}`).toBe(400);
      expectEnvelope(updated, 400, 'VALIDATION_ERROR');
    }
    const endpoints = (await as('GET', `/projects/${projectId}/webhooks`)).body.data;
    expect(endpoints).toEqual([expect.objectContaining({ id: webhookId, url: 'http://93.184.216.34/hook', enabled: false })]);
    const tested = await as('POST', `/webhooks/${webhookId}/test`);
    expect(tested.status).toBe(409);
    expect(receiver.requests).toEqual([]);
  });

  it('stored no job or schedule and reserved nothing for the refused targets', async () => {
    const jobs = await as('GET', `/projects/${projectId}/jobs`);
    expect(jobs.body.meta.total).toBe(1);
    expect((await as('GET', `/projects/${projectId}/schedules`)).body.data).toEqual([]);
    expect((await as('GET', '/usage')).body.data.credits).toEqual(creditsBefore);
  });
});
