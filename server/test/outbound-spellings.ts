import { lookup } from 'node:dns/promises';
import type { AddressLookup } from '@cfs/contracts/outbound-guard';

/** URLs that all reach a refused address, however spelled. */
export const REFUSED_URLS = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://127.0.1/',
  'http://2130706433/',
  'http://017700000001/',
  'http://0177.0.0.1/',
  'http://0x7f000001/',
  'http://0x7f.0.0.1/',
  'http://0x7f.1/',
  'http://127.0.0.1./',
  'http://%31%32%37.0.0.1/',
  'http://0/',
  'http://0.0.0.0/',
  'http://10.0.0.1/',
  'http://012.1/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://192.168.1.1/',
  'http://3232235777/',
  'http://100.64.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://0xa9fea9fe/',
  'http://2852039166/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://240.0.0.1/',
  'http://198.18.0.1/',
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:7f00:1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[2002:7f00:1::]/',
  'http://[2002:c0a8:101::1]/',
  'http://[fd00:ec2::254]/',
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://[2001:db8::1]/',
  'https://127.0.0.1:8443/',
];

/**
 * Names only this resolver knows (RFC 6761 `.test`), standing for a DNS name that an attacker
 * points at an internal address; every other name goes to the system resolver, which answers the
 * numeric spellings (`2130706433`, `0x7f.1`) without asking any server.
 */
export const TEST_NAMES: Record<string, string[]> = {
  'canary.test': ['127.0.0.3'],
  'metadata.test': ['169.254.169.254'],
  'intranet.test': ['10.0.0.5'],
  'mixed.test': ['127.0.0.4', '::1'],
  'v6.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.2'],
  'unspecified.test': ['0.0.0.0'],
};

export const testLookup: AddressLookup = async (name) => {
  const known = TEST_NAMES[name.toLowerCase().replace(/\.$/, '')];
  if (known) return known.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return lookup(name, { all: true, verbatim: true });
};

/** More ways to reach an internal address: names that resolve there, and URLs whose host is not what it seems. */
export const NAME_AND_TRICK_URLS = [
  'http://localhost/',
  'http://LOCALHOST./',
  'http://canary.localhost/',
  'http://canary.test/',
  'http://CANARY.TEST./',
  'http://metadata.test/latest/meta-data/',
  'http://intranet.test/',
  'http://mixed.test/',
  'http://v6.test/',
  'http://mapped.test/',
  'http://unspecified.test/',
  'http://127.0.0.2/',
  'http://127.000.000.003/',
  'http://0x7f.0x0.0x0.0x4/',
  'http://[::ffff:7f00:5]/',
  'http://127.0.0.\t6/',
  'http://127.0.0.1\r\n/',
  'http://canary.test\\@8.8.8.8/',
  'http://127.0.0.1#@8.8.8.8/',
  'http://8.8.8.8@127.0.0.1/',
];

/** A spelling with the port given (the scheme's default replaced), the host left as written. */
export function withPort(url: string, port: number): string {
  const match = /^(https?:\/\/)([^/?#]*)(.*)$/s.exec(url);
  if (!match) throw new Error(`Not a spelling: ${url}`);
  const [, scheme = '', authority = '', rest = ''] = match;
  const host = authority.startsWith('[')
    ? authority.slice(0, authority.indexOf(']') + 1)
    : authority.replace(/:\d+$/, '');
  return `${scheme}${host}:${port}${rest || '/'}`;
}
