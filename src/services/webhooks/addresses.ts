import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IANA special-purpose blocks that ipaddr.js 1.x still calls unicast. */
const alsoReserved = ['198.18.0.0/15', '100::/64', '2001::/23', 'fec0::/10'].map((cidr) => ipaddr.parseCIDR(cidr));

/** Why an address may not be called, or null for a public unicast address. */
export function addressRefusal(address: string): string | null {
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range !== 'unicast') return `${address} is a ${range} address`;
  const inBlock = ([net, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]) =>
    net.kind() === ip.kind() && (ip.kind() === 'ipv4' ? (ip as ipaddr.IPv4).match(net as ipaddr.IPv4, bits) : (ip as ipaddr.IPv6).match(net as ipaddr.IPv6, bits));
  if (alsoReserved.some(inBlock)) return `${address} is a reserved address`;
  return null;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type UrlCheck = { refused: string } | { url: URL; addresses: ResolvedAddress[] };

/**
 * A webhook URL as it may be saved or called: http(s) only, https under production, no credentials in
 * it, and a host whose every address is public unless private ones are allowed. Returns the addresses
 * to connect to, or why the URL is refused.
 */
export async function checkWebhookUrl(raw: string, rules: { production: boolean; allowPrivate: boolean }): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: 'is not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { refused: 'must be an http or https URL' };
  if (rules.production && url.protocol !== 'https:') return { refused: 'must be an https URL' };
  if (url.username || url.password) return { refused: 'must not carry a user name or password' };
  const resolved = await resolveWebhookHost(url.hostname, rules.allowPrivate);
  return 'refused' in resolved ? { refused: `is refused: ${resolved.refused}` } : { url, addresses: resolved.addresses };
}

/**
 * Every address the URL's host resolves to, each checked: one refused address refuses the URL, since
 * the connection could use any of them. The caller connects only to the addresses returned.
 */
async function resolveWebhookHost(host: string, allowPrivate: boolean): Promise<{ addresses: ResolvedAddress[] } | { refused: string }> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (isIP(bare)) {
    addresses = [{ address: bare, family: isIP(bare) as 4 | 6 }];
  } else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } catch (err) {
      return { refused: `${bare} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
    }
  }
  if (addresses.length === 0) return { refused: `${bare} does not resolve` };
  if (!allowPrivate) {
    for (const a of addresses) {
      const why = addressRefusal(a.address);
      if (why) return { refused: bare === a.address ? why : `${bare} resolves to ${why}` };
    }
  }
  return { addresses };
}
