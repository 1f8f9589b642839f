import { lookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * The outbound guard (DESIGN: outgoing HTTP from action definitions and agent checks): the
 * server's action runner and the device agent's HTTP and TCP checks may call public addresses only. Loopback, private, shared (CGNAT), link-local, cloud metadata, unspecified,
 * multicast, broadcast, documentation and otherwise reserved addresses are refused however they
 * are spelled — the URL parser first turns decimal, octal, hex and short IPv4 forms into dotted
 * quads, IPv6 is compared by value, and an IPv4 address inside IPv6 (IPv4-mapped, IPv4-compatible,
 * NAT64, 6to4, Teredo) is judged as that IPv4 address. A DNS name is judged by every address it
 * resolves to, and the connection then goes to the address that was judged (the server's
 * outbound.ts, the agent's http-check.ts), so a name cannot resolve to one address for the check
 * and another for the connection.
 *
 * OUTBOUND_ALLOW lists the exceptions: `host`, `host:port`, `[v6]:port` or a CIDR range.
 */

const v4Blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 broadcast
] as const) {
  v4Blocked.addSubnet(network, prefix, 'ipv4');
}

/** IPv6 ranges refused outright (the IPv4-embedding ranges are judged by their IPv4 address instead). */
const v6Blocked = new BlockList();
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (judged below before this list)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo judged below)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 SIDs
  ['fc00::', 7], // unique local, fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  v6Blocked.addSubnet(network, prefix, 'ipv6');
}

/** An IPv6 address's eight groups (zone index dropped, an embedded dotted quad folded in). */
export function ipv6Groups(address: string): number[] {
  let text = address.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...(tail === undefined ? [] : Array<string>(missing).fill('0')), ...tailGroups];
  return groups.map((group) => parseInt(group, 16));
}

const quadOf = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 address carries, where it is one of the embeddings that reach IPv4 hosts. */
function embeddedIPv4(groups: number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroTo = (n: number) => groups.slice(0, n).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return quadOf(g6, g7); // ::ffff:a.b.c.d IPv4-mapped
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return quadOf(g6, g7); // ::ffff:0:a.b.c.d IPv4-translated
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return quadOf(g6, g7); // ::a.b.c.d IPv4-compatible
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return quadOf(g6, g7); // 64:ff9b::/96 NAT64
  if (g0 === 0x2002) return quadOf(g1, g2); // 2002::/16 6to4
  if (g0 === 0x2001 && g1 === 0) return quadOf(g6 ^ 0xffff, g7 ^ 0xffff); // 2001::/32 Teredo client
  return undefined;
}

/** Why an IP address may not be called, or undefined when it may (it is a public unicast address). */
export function forbiddenAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  if (isIPv4(bare))
    return v4Blocked.check(bare, 'ipv4') ? `${bare} is a loopback, private, link-local or reserved address` : undefined;
  if (!isIPv6(bare)) return `${address} is not an IP address`;
  const groups = ipv6Groups(bare);
  const inner = embeddedIPv4(groups);
  if (inner !== undefined)
    return v4Blocked.check(inner, 'ipv4')
      ? `${bare} carries ${inner}, a loopback, private, link-local or reserved address`
      : undefined;
  const canonical = groups.map((group) => group.toString(16)).join(':');
  if (v6Blocked.check(canonical, 'ipv6')) return `${bare} is a loopback, private, link-local or reserved address`;
  // Only global unicast (2000::/3) reaches the internet.
  if ((groups[0] ?? 0) >> 13 !== 1) return `${bare} is not a global unicast address`;
  return undefined;
}

/** One OUTBOUND_ALLOW entry: a CIDR range, or a host (name or address) with an optional port. */
type AllowEntry = { kind: 'range'; list: BlockList } | { kind: 'host'; host: string; port: number | undefined };

/** A parsed OUTBOUND_ALLOW: which otherwise refused targets actions may call. */
export interface OutboundAllow {
  readonly entries: readonly AllowEntry[];
}

const normalHost = (host: string) =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

export function parseOutboundAllow(text: string): OutboundAllow {
  const entries: AllowEntry[] = [];
  for (const raw of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const cidr = /^(.+)\/(\d{1,3})$/.exec(raw);
    if (cidr) {
      const [, network = '', prefix = ''] = cidr;
      const family = isIP(network);
      if (family === 0 || Number(prefix) > (family === 4 ? 32 : 128))
        throw new Error(`OUTBOUND_ALLOW: "${raw}" is not a CIDR range`);
      const list = new BlockList();
      list.addSubnet(network, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
      entries.push({ kind: 'range', list });
      continue;
    }
    const hostPort =
      /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(raw) ?? (isIPv6(raw) ? [raw, raw, undefined] : null);
    if (!hostPort) throw new Error(`OUTBOUND_ALLOW: "${raw}" is not host[:port] or a CIDR range`);
    entries.push({
      kind: 'host',
      host: normalHost(hostPort[1] ?? ''),
      port: hostPort[2] === undefined ? undefined : Number(hostPort[2]),
    });
  }
  return { entries };
}

export const NOTHING_ALLOWED: OutboundAllow = { entries: [] };

/** Whether OUTBOUND_ALLOW lets a call to `host` (as written in the URL) at `address`:`port` through. */
export function isAllowed(allow: OutboundAllow, host: string, address: string, port: number): boolean {
  const name = normalHost(host);
  const bare = normalHost(address);
  return allow.entries.some((entry) => {
    if (entry.kind === 'range')
      return isIPv4(bare) ? entry.list.check(bare, 'ipv4') : isIPv6(bare) && entry.list.check(bare, 'ipv6');
    return (entry.port === undefined || entry.port === port) && (entry.host === name || entry.host === bare);
  });
}

/** A call the guard refused: never retried (the answer would not change). */
export class OutboundRefused extends Error {}

/** At most this many redirects are followed by a guarded call (each hop's host judged again). */
export const MAX_REDIRECTS = 5;
/** Answers that send a client on to their `Location`. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: not sent on to another origin by a redirect. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * The request a guarded call sends after a redirect from `from.url` to `to`, as browsers do: to
 * another origin without the headers that carry credentials; after a 303, or a 301 or 302 of a
 * POST, as a GET (a HEAD stays a HEAD) without the body and its `content-*` headers. The server's
 * action runner (outbound.ts) and the agent's HTTP checks (http-check.ts) follow redirects by it.
 *
 * @example
 *   const after = requestAfterRedirect(302, { url, method: 'POST', headers }, next);
 *   // { method: 'GET', headers: (without content-* and, off the origin, credentials), keepsBody: false }
 */
export function requestAfterRedirect(
  status: number,
  from: { url: URL; method: string; headers: Readonly<Record<string, string>> },
  to: URL,
): { method: string; headers: Record<string, string>; keepsBody: boolean } {
  let headers = { ...from.headers };
  if (to.origin !== from.url.origin)
    headers = Object.fromEntries(
      Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())),
    );
  const toGet = status === 303 || ((status === 301 || status === 302) && from.method === 'POST');
  if (!toGet) return { method: from.method, headers, keepsBody: true };
  return {
    method: from.method === 'HEAD' ? 'HEAD' : 'GET',
    headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-/i.test(name))),
    keepsBody: false,
  };
}

/** The port a URL names or its scheme's default. */
export const portOf = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/** Every address a name resolves to; the system resolver unless a caller brings its own. */
export type AddressLookup = (name: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: AddressLookup = (name) => lookup(name, { all: true, verbatim: true });

/**
 * The address to connect to for `host`:`port`, judged by the guard: an IP literal as it is, a name
 * by every address it resolves to (any refused address refuses the name: a resolver may answer
 * differently on the next call). Throws OutboundRefused.
 */
export async function resolveGuarded(
  allow: OutboundAllow,
  host: string,
  port: number,
  timeoutMs: number,
  resolve: AddressLookup = systemLookup,
): Promise<ResolvedTarget> {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family !== 0) {
    const reason = forbiddenAddressReason(bare);
    if (reason && !isAllowed(allow, host, bare, port))
      throw new OutboundRefused(`The address is not allowed: ${reason}.`);
    return { address: bare, family: family as 4 | 6 };
  }
  // RFC 6761: localhost names are loopback whatever a resolver says.
  const name = normalHost(bare);
  if (
    (name === 'localhost' || name.endsWith('.localhost')) &&
    !isAllowed(allow, host, '127.0.0.1', port) &&
    !isAllowed(allow, host, '::1', port)
  ) {
    throw new OutboundRefused(`The address is not allowed: ${bare} resolves to loopback.`);
  }
  let timer: NodeJS.Timeout | undefined;
  const answers = await Promise.race([
    resolve(bare),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`Resolving ${bare} timed out`), { code: 'ETIMEDOUT' })),
        timeoutMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  if (answers.length === 0) throw Object.assign(new Error(`${bare} has no address`), { code: 'ENOTFOUND' });
  for (const answer of answers) {
    const reason = forbiddenAddressReason(answer.address);
    if (reason && !isAllowed(allow, host, answer.address, port))
      throw new OutboundRefused(`The address is not allowed: ${bare} resolves to ${answer.address}; ${reason}.`);
  }
  const first = answers[0] as { address: string; family: number };
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * The save-time check of an action's endpoint: why the URL may not be called, or undefined.
 * A host still made of placeholders is judged when the action runs; a name that does not resolve
 * now is let through (it is judged again at every call).
 */
export async function endpointRefusal(allow: OutboundAllow, endpointUrl: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(endpointUrl.replace(/\{[^{}]*\}/g, 'placeholder'));
  } catch {
    return undefined;
  }
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(endpointUrl)?.[1] ?? '';
  if (/[{}]/.test(authority)) return undefined;
  try {
    await resolveGuarded(allow, url.hostname, portOf(url), 3000);
    return undefined;
  } catch (error) {
    return error instanceof OutboundRefused ? error.message : undefined;
  }
}
