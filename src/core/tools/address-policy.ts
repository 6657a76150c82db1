/**
 * Which addresses `web_fetch` may connect to (ARCHITECTURE.md §16, §17): public unicast only. The
 * decision is made on the address the connection will use — after DNS resolution, and again for
 * every redirect — never on the name.
 */
import { BlockList, isIP } from 'node:net';

const v4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  v4.addSubnet(net, bits, 'ipv4');
}

const v6 = new BlockList();
for (const [net, bits] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (also AWS's metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  v6.addSubnet(net, bits, 'ipv6');
}

/** The 32 bits at `from` (a bit offset) of an IPv6 address as dotted IPv4. */
function embeddedV4(address: string, from: number): string {
  const bytes = ipv6Bytes(address);
  const at = from / 8;
  return `${bytes[at]}.${bytes[at + 1]}.${bytes[at + 2]}.${bytes[at + 3]}`;
}

function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
}

function inPrefix(address: string, prefix: number[], bits: number): boolean {
  const bytes = ipv6Bytes(address);
  for (let i = 0; i < bits / 8; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** Null when the address is public unicast; else why it is refused ("a private address"). */
export function refusedAddress(address: string, options: { allowLoopback?: boolean } = {}): string | null {
  const family = isIP(address);
  if (family === 4) {
    if (options.allowLoopback && v4.check(address, 'ipv4') && address.startsWith('127.')) return null;
    return v4.check(address, 'ipv4') ? `${address} is not a public address (loopback, private, link-local, metadata or reserved)` : null;
  }
  if (family === 6) {
    const plain = address.split('%')[0];
    // IPv4 inside IPv6: mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96 and 64:ff9b:1::/48), 6to4 (2002::/16).
    if (inPrefix(plain, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96)) return refusedAddress(embeddedV4(plain, 96), options);
    if (inPrefix(plain, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) return refusedAddress(embeddedV4(plain, 96), options);
    if (inPrefix(plain, [0, 0x64, 0xff, 0x9b, 0, 1], 48)) return `${address} is not a public address (local-use NAT64)`;
    if (inPrefix(plain, [0x20, 0x02], 16)) return refusedAddress(embeddedV4(plain, 16), options);
    if (options.allowLoopback && plain === '::1') return null;
    return v6.check(plain, 'ipv6') ? `${address} is not a public address (loopback, private, link-local, metadata or reserved)` : null;
  }
  return `${address} is not an IP address`;
}
