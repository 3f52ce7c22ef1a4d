/**
 * IP addresses and CIDR blocks, for the traffic filters of a route. Pure parsing and matching of
 * IPv4 and IPv6 text (an IPv4-mapped IPv6 address matches its IPv4 block).
 */

export interface Cidr {
  version: 4 | 6;
  bits: bigint;
  prefix: number;
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255 || (part.length > 1 && part.startsWith('0'))) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  let s = text;
  if (s.includes('.')) {
    // A trailing dotted IPv4 part (::ffff:10.0.0.1) stands for the last two groups.
    const i = s.lastIndexOf(':');
    const v4 = parseIpv4(s.slice(i + 1));
    if (v4 === null) return null;
    s = `${s.slice(0, i + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  if (!/^[0-9a-fA-F:]+$/.test(s)) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const toGroups = (part: string): bigint[] | null => {
    if (part === '') return [];
    const out: bigint[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(BigInt(`0x${g}`));
    }
    return out;
  };
  const head = toGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  const known = head.length + tail.length;
  if (halves.length === 2 ? known > 7 : known !== 8) return null;
  const groups = [...head, ...Array<bigint>(8 - known).fill(0n), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** An address as a /32 or /128 block, or null when the text is not an IP address. */
export function parseIp(text: string): Cidr | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { version: 4, bits: v4, prefix: 32 };
  const v6 = parseIpv6(text);
  if (v6 === null) return null;
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) is compared as IPv4.
  if (v6 >> 32n === 0xffffn) return { version: 4, bits: v6 & 0xffffffffn, prefix: 32 };
  return { version: 6, bits: v6, prefix: 128 };
}

/** "10.0.0.0/8", "2001:db8::/32" or a bare address; null when invalid. */
export function parseCidr(text: string): Cidr | null {
  const [addr, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || addr === undefined) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  if (prefixText === undefined) return ip;
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  const width = ip.version === 4 ? 32 : 128;
  if (prefix > width) return null;
  const shift = BigInt(width - prefix);
  return { version: ip.version, bits: (ip.bits >> shift) << shift, prefix };
}

export function cidrContains(block: Cidr, ip: Cidr): boolean {
  if (block.version !== ip.version) return false;
  const shift = BigInt((block.version === 4 ? 32 : 128) - block.prefix);
  return ip.bits >> shift === block.bits >> shift;
}
