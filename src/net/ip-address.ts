import net from "node:net";

/**
 * IP addresses as numbers, so ranges are compared exactly: an address string
 * has many spellings (::ffff:169.254.169.254, 0:0:0:0:0:ffff:a9fe:a9fe,
 * fe80::1%eth0) and string matching would miss some of them.
 */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

export interface IpRange {
  family: 4 | 6;
  /** The network address (host bits cleared). */
  base: bigint;
  prefix: number;
  /** As written in the configuration, for messages. */
  text: string;
}

/** Parses an IPv4 or IPv6 literal (brackets and zone ids allowed); IPv4-mapped IPv6 becomes IPv4. Undefined when not an address. */
export function parseIp(raw: string): IpAddress | undefined {
  let s = raw.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const kind = net.isIP(s);
  if (kind === 4) return { family: 4, value: v4(s) };
  if (kind !== 6) return undefined;
  const value = v6(s);
  // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d: judge it as that host.
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

/** "10.0.0.0/8", "fe80::/10", or a single address (a /32 or /128). Undefined when not a range. */
export function parseRange(raw: string): IpRange | undefined {
  const text = raw.trim();
  const slash = text.indexOf("/");
  const ip = parseIp(slash >= 0 ? text.slice(0, slash) : text);
  if (!ip) return undefined;
  const bits = ip.family === 4 ? 32 : 128;
  // An IPv4-mapped range (::ffff:10.0.0.0/104) is kept as the IPv4 range it denotes.
  const mappedShift = ip.family === 4 && net.isIPv6(text.slice(0, slash >= 0 ? slash : undefined).replace(/^\[|\]$/g, "")) ? 96 : 0;
  let prefix = bits;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p)) return undefined;
    prefix = Number(p) - mappedShift;
    if (prefix < 0 || prefix > bits) return undefined;
  }
  return { family: ip.family, base: ip.value & mask(bits, prefix), prefix, text };
}

export function inRange(ip: IpAddress, range: IpRange): boolean {
  if (ip.family !== range.family) return false;
  return (ip.value & mask(ip.family === 4 ? 32 : 128, range.prefix)) === range.base;
}

export function isLoopback(ip: IpAddress): boolean {
  return ip.family === 4 ? ip.value >> 24n === 127n : ip.value === 1n;
}

/** 0.0.0.0 and :: : a connection to them reaches this host. */
export function isUnspecified(ip: IpAddress): boolean {
  return ip.value === 0n;
}

export function sameIp(a: IpAddress, b: IpAddress): boolean {
  return a.family === b.family && a.value === b.value;
}

function mask(bits: number, prefix: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return prefix === 0 ? 0n : (all >> BigInt(bits - prefix)) << BigInt(bits - prefix);
}

function v4(s: string): bigint {
  return s.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6(s: string): bigint {
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hextets.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const n = v4(tail[1]);
    s = `${s.slice(0, -tail[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, rest] = s.includes("::") ? s.split("::") : [s, undefined];
  const left = head ? head.split(":") : [];
  const right = rest !== undefined && rest !== "" ? rest.split(":") : [];
  const missing = 8 - left.length - right.length;
  const groups = rest === undefined ? left : [...left, ...Array<string>(missing).fill("0"), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}
