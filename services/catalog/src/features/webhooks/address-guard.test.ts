import { describe, expect, it } from 'vitest';
import { blockedReason, checkUrlShape, checkWebhookUrl, WebhookUrlError, type Resolver } from './address-guard.ts';

const strict = { requireHttps: true, allowPrivate: false };
const dev = { requireHttps: false, allowPrivate: true };

describe('blockedReason (pure)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['192.0.0.8', 'IETF'],
    ['192.88.99.1', 'reserved'],
    ['203.0.113.7', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated (RFC 6145)
    ['::ffff:0:a00:1', 'private'],
    ['::ffff:100.64.0.1', 'carrier-grade NAT'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::6440:1', 'carrier-grade NAT'],
    ['64:ff9b:1::808:808', 'local NAT64'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['2002:6440:1::1', 'carrier-grade NAT'],
    ['::8.8.8.8', 'IPv4-compatible'], // not ::ffff:8.8.8.8, whatever a lenient parser says
    ['fec0::1', 'site-local'],
    ['100::1', 'discard'],
    ['2001:2::1', 'benchmarking'],
    ['3fff::1', 'reserved'], // documentation (RFC 9637)
    ['4000::1', 'not global unicast'],
    ['fe80::1%Ethernet 2', 'link-local'],
    ['127.0.0.1%eth0', 'invalid'],
    ['127.1', 'invalid'], // shorthand forms are normalised by URL parsing, never passed here raw
    ['not-an-ip', 'invalid'],
  ])('%s is blocked (%s)', (address, label) => {
    expect(blockedReason(address)).toContain(label);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '223.255.255.255',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(blockedReason(address)).toBeNull();
  });
});

describe('checkUrlShape (pure)', () => {
  const rejects = (url: string, rules = strict) => {
    expect(() => checkUrlShape(url, rules)).toThrow(WebhookUrlError);
  };

  it('accepts a public https URL and keeps path and query', () => {
    const checked = checkUrlShape('https://hooks.example.com:8443/a/b?x=1', strict);
    expect(checked.url.toString()).toBe('https://hooks.example.com:8443/a/b?x=1');
    expect(checked.hostname).toBe('hooks.example.com');
    expect(checked.literal).toBeNull();
  });

  it('requires https unless the operator allows http', () => {
    rejects('http://hooks.example.com/x');
    expect(checkUrlShape('http://hooks.example.com/x', { requireHttps: false, allowPrivate: false }).url.protocol).toBe('http:');
  });

  it.each(['ftp://hooks.example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://hooks.example.com', 'not a url', '/relative/path', 'https://'])(
    'rejects %s',
    (url) => {
      rejects(url);
      rejects(url, dev);
    },
  );

  it('rejects credentials and fragments even in development', () => {
    rejects('https://user:pass@hooks.example.com/x', dev);
    rejects('https://user@hooks.example.com/x', dev);
    rejects('https://hooks.example.com/x#frag', dev);
  });

  it.each([
    'https://127.0.0.1/x',
    'https://127.1/x', // WHATWG URL normalises shorthand, hex and decimal forms
    'https://2130706433/x',
    'https://0x7f000001/x',
    'https://0177.0.0.1/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[fe80::1]/x',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.5/x',
    'https://100.64.1.1/x',
    'https://224.0.0.1/x',
    'https://255.255.255.255/x',
    'https://localhost/x',
    'https://LOCALHOST./x',
    'https://api.localhost/x',
    'https://metadata.google.internal/x',
    'https://printer.local/x',
    'https://intranet/x',
  ])('rejects the private or local target %s', (url) => {
    rejects(url);
  });

  it('allows private literals when the operator lifts the address rule', () => {
    expect(checkUrlShape('http://127.0.0.1:3000/hook', dev).literal).toEqual({ address: '127.0.0.1', family: 4 });
    expect(checkUrlShape('http://[::1]:3000/hook', dev).literal).toEqual({ address: '::1', family: 6 });
    expect(checkUrlShape('http://localhost:3000/hook', dev).hostname).toBe('localhost');
  });
});

describe('checkWebhookUrl (resolution)', () => {
  const resolverOf =
    (table: Record<string, string[]>): Resolver =>
    async (hostname) => {
      const addresses = table[hostname];
      if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };

  it('returns every resolved address of a public name', async () => {
    const { addresses } = await checkWebhookUrl(
      'https://hooks.example.com/x',
      strict,
      resolverOf({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] }),
    );
    expect(addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
  });

  it('refuses a name that resolves to 127.0.0.1', async () => {
    await expect(checkWebhookUrl('https://evil.example.com/x', strict, resolverOf({ 'evil.example.com': ['127.0.0.1'] }))).rejects.toThrow(/loopback/);
  });

  it('refuses a name when any of its addresses is private', async () => {
    await expect(checkWebhookUrl('https://mixed.example.com/x', strict, resolverOf({ 'mixed.example.com': ['93.184.216.34', '10.0.0.7'] }))).rejects.toThrow(
      /private/,
    );
    await expect(checkWebhookUrl('https://v6.example.com/x', strict, resolverOf({ 'v6.example.com': ['::ffff:169.254.169.254'] }))).rejects.toThrow(
      /link-local/,
    );
  });

  it('refuses names that do not resolve', async () => {
    await expect(checkWebhookUrl('https://nowhere.example.com/x', strict, resolverOf({}))).rejects.toThrow(/could not be resolved \(ENOTFOUND\)/);
  });

  it('does not resolve IP literals', async () => {
    const { addresses } = await checkWebhookUrl('https://93.184.216.34/x', strict, async () => {
      throw new Error('resolver must not be called');
    });
    expect(addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('allows private answers when the operator lifts the address rule', async () => {
    const { addresses } = await checkWebhookUrl('http://receiver.test:8080/x', dev, resolverOf({ 'receiver.test': ['127.0.0.1'] }));
    expect(addresses).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });
});
