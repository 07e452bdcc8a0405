/**
 * The headers every API answer carries, JSON and errors alike, including the ones written before
 * any plugin runs (a request Node's parser refuses, a URL the router cannot decode); the
 * framework-errors test holds the two equal. Only what protects an API: no sniffing a JSON body
 * into something executable, no framing, HTTPS remembered. The rest of Helmet's set is for pages a
 * browser renders, and stays on the HTML the gateway serves (the API explorer under /docs): on
 * every JSON answer it cost ~550 bytes and a share of the throughput (docs/benchmarks.md, "Read path").
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
