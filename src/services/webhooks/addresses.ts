import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const blocks = <T extends ipaddr.IPv4 | ipaddr.IPv6>(...cidrs: string[]) => cidrs.map((c) => ipaddr.parseCIDR(c) as [T, number]);

/** IANA special-purpose IPv4 blocks that ipaddr.js 1.x still calls unicast. */
const alsoReservedV4 = blocks<ipaddr.IPv4>('198.18.0.0/15');
/** Global unicast: the only IPv6 space a webhook may reach, so that a block added to the registry later is refused, not missed. */
const [globalUnicast] = blocks<ipaddr.IPv6>('2000::/3');
/** IANA special-purpose blocks inside global unicast: 2001::/23 (Teredo, benchmarking, ORCHID...) and documentation. */
const reservedV6 = blocks<ipaddr.IPv6>('2001::/23', '2001:db8::/32', '3fff::/20');
/** Addresses that stand for the IPv4 address in their last 32 bits: IPv4-mapped, and NAT64's well-known prefix (RFC 6052). */
const lastWordIPv4 = blocks<ipaddr.IPv6>('::ffff:0:0/96', '64:ff9b::/96');
const [sixToFour] = blocks<ipaddr.IPv6>('2002::/16');

/** What makes an IPv4 address uncallable ("a private address"), or null for a public unicast one. */
function ipv4Kind(ip: ipaddr.IPv4): string | null {
  const range = ip.range();
  if (range !== 'unicast') return `a ${range} address`;
  return alsoReservedV4.some((b) => ip.match(b)) ? 'a reserved address' : null;
}

/** The IPv4 address a connection to this IPv6 address reaches, where the prefix says it carries one (6to4 in bits 16-47). */
function carriedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = ip.toByteArray();
  if (lastWordIPv4.some((b) => ip.match(b))) return new ipaddr.IPv4(bytes.slice(12));
  if (ip.match(sixToFour)) return new ipaddr.IPv4(bytes.slice(2, 6));
  return null;
}

/**
 * Fails closed: only global unicast outside the special-purpose blocks. IPv4-compatible (::/96,
 * deprecated) and local-use NAT64 (64:ff9b:1::/48, where the IPv4 address may sit anywhere) are
 * outside it, so refused.
 */
function ipv6Kind(ip: ipaddr.IPv6): string | null {
  const range = ip.range();
  if (range !== 'unicast') return `a ${range} address`;
  return !ip.match(globalUnicast) || reservedV6.some((b) => ip.match(b)) ? 'a reserved address' : null;
}

/** Why an address may not be called, or null for a public unicast address. */
export function addressRefusal(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return `${address} is not an address that can be checked`;
  }
  if (ip.kind() === 'ipv4') {
    const kind = ipv4Kind(ip as ipaddr.IPv4);
    return kind && `${address} is ${kind}`;
  }
  const carried = carriedIPv4(ip as ipaddr.IPv6);
  if (carried) {
    const kind = ipv4Kind(carried);
    return kind && `${address} carries ${carried.toString()}, ${kind}`;
  }
  const kind = ipv6Kind(ip as ipaddr.IPv6);
  return kind && `${address} is ${kind}`;
}

/** The webhooks table's `url` column. */
export const URL_MAX = 2048;

/** The URL's form alone: parsable, http or https, short enough to store. Null when it has that form. */
export function urlFormRefusal(raw: string): string | null {
  if (!URL.canParse(raw)) return 'is not a URL';
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  // What is stored is the URL in its standard form, where each byte of a character outside ASCII takes three.
  return url.toString().length > URL_MAX ? `must be at most ${URL_MAX} characters once percent-encoded` : null;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * `refused`: the URL breaks a rule, and no retry can help. `unresolved`: its host gave no address
 * (the lookup failed or took too long), which a later try may get.
 */
export type UrlCheck = { refused: string } | { unresolved: string } | { url: URL; addresses: ResolvedAddress[] };

/** As long as an HTTP answer may take: a resolver that does not answer is a failure to retry, not a worker held up. */
const LOOKUP_TIMEOUT_MS = 10_000;

/**
 * A webhook URL as it may be saved or called: http(s) only, https under production, no credentials in
 * it, and a host whose every address is public unless private ones are allowed. Returns the addresses
 * to connect to, or why the URL is refused or could not be resolved.
 */
export async function checkWebhookUrl(raw: string, rules: { production: boolean; allowPrivate: boolean }): Promise<UrlCheck> {
  const form = urlFormRefusal(raw);
  if (form) return { refused: form };
  const url = new URL(raw);
  if (rules.production && url.protocol !== 'https:') return { refused: 'must be an https URL' };
  if (url.username || url.password) return { refused: 'must not carry a user name or password' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) as 4 | 6 }];
  } else {
    try {
      addresses = await lookupAll(host);
    } catch (err) {
      return { unresolved: `${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
    }
    if (addresses.length === 0) return { unresolved: `${host} does not resolve` };
  }
  // One refused address refuses the URL, since the connection could use any of them; the caller connects only to those returned.
  if (!rules.allowPrivate) {
    for (const a of addresses) {
      const why = addressRefusal(a.address);
      if (why) return { refused: `is refused: ${host === a.address ? why : `${host} resolves to ${why}`}` };
    }
  }
  return { url, addresses };
}

/** Every address of the name, or a rejection with a code: the resolver's (ENOTFOUND, EAI_AGAIN...) or ETIMEOUT. */
async function lookupAll(host: string): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${LOOKUP_TIMEOUT_MS / 1000} s`), { code: 'ETIMEOUT' })), LOOKUP_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  } finally {
    clearTimeout(timer);
  }
}
