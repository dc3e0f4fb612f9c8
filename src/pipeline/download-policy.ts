import dns from "node:dns";
import net from "node:net";
import os from "node:os";
import { AppError } from "../errors.js";
import { inRange, isLoopback, isUnspecified, parseIp, parseRange, sameIp, type IpAddress, type IpRange } from "../net/ip-address.js";

/** One entry of --download-allow / --download-deny: an address range or a host name (`.example.com` / `*.example.com` for a domain and its subdomains). */
export type PolicyRule = { kind: "range"; range: IpRange } | { kind: "name"; name: string; subdomains: boolean; text: string };

/**
 * Never fetched unless an --download-allow range names them: link-local (where
 * cloud metadata services live), the metadata addresses outside it, "this
 * network", multicast and broadcast. Private ranges and loopback stay allowed:
 * the PBXs and recording servers callreview fetches from live there.
 */
export const BUILT_IN_DENY: readonly { range: string; why: string }[] = [
  { range: "169.254.0.0/16", why: "link-local" },
  { range: "fe80::/10", why: "link-local" },
  { range: "fd00:ec2::254/128", why: "cloud metadata service" },
  { range: "100.100.100.200/32", why: "cloud metadata service" },
  { range: "168.63.129.16/32", why: "cloud platform service" },
  { range: "0.0.0.0/8", why: "this-network address" },
  { range: "::/128", why: "unspecified address" },
  { range: "224.0.0.0/4", why: "multicast" },
  { range: "255.255.255.255/32", why: "broadcast" },
  { range: "ff00::/8", why: "multicast" },
];

const BUILT_IN = BUILT_IN_DENY.map((d) => ({ range: parseRange(d.range)!, why: d.why }));

/** A destination the policy refuses; the message says which address and why (for logs and the job's error, not the client). */
export class DownloadBlocked extends Error {}

export type PolicyDecision = { allowed: true } | { allowed: false; why: string };

/** Parses a comma-separated list of CIDRs, addresses and host names; a bad entry is a config error naming the setting. */
export function parseRuleList(raw: string, setting: string): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const part of raw.split(",")) {
    const text = part.trim();
    if (!text) continue;
    const range = parseRange(text);
    if (range) {
      rules.push({ kind: "range", range });
      continue;
    }
    const name = text.toLowerCase().replace(/^\*\./, ".");
    if (/^\.?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/.test(name) && !text.includes("/")) {
      const subdomains = name.startsWith(".");
      rules.push({ kind: "name", name: (subdomains ? name.slice(1) : name).replace(/\.$/, ""), subdomains, text });
      continue;
    }
    throw new AppError("invalid_config", `invalid value for ${setting}: "${text}" (expected CIDRs, IP addresses or host names, comma-separated)`);
  }
  return rules;
}

/**
 * Decides which addresses recording_url downloads may connect to. Checked on
 * the resolved address of every hop (redirects included), and the connection
 * is made to exactly the address that was checked (resolve(), then src/net/pinned-get.ts), so a name
 * that resolves differently a moment later cannot slip past.
 */
export class DownloadPolicy {
  private own: { host: IpAddress | "any" | undefined; port: number }[] = [];

  constructor(
    private readonly allow: PolicyRule[] = [],
    private readonly deny: PolicyRule[] = [],
  ) {}

  /** The service's own listener is never a download source (a request to it would act with the service's own reach). */
  denyListener(host: string, port: number): void {
    const ip = parseIp(host);
    this.own.push({ host: ip && isUnspecified(ip) ? "any" : ip, port });
  }

  check(hostname: string, address: string, port: number): PolicyDecision {
    const ip = parseIp(address);
    if (!ip) return { allowed: false, why: `${address} is not an IP address` };
    const name = normalizeName(hostname);
    if (this.isOwnListener(ip, port)) return { allowed: false, why: "it is callreview's own listener" };
    const denied = this.deny.find((r) => matches(r, name, ip));
    if (denied) return { allowed: false, why: `--download-deny lists ${ruleText(denied)}` };
    if (this.allow.some((r) => r.kind === "range" && inRange(ip, r.range))) return { allowed: true };
    const builtIn = BUILT_IN.find((b) => inRange(ip, b.range));
    if (builtIn) return { allowed: false, why: `${builtIn.range.text} (${builtIn.why}) is denied by default` };
    if (this.allow.length > 0 && !this.allow.some((r) => matches(r, name, ip))) return { allowed: false, why: "the host is not in --download-allow" };
    return { allowed: true };
  }

  /**
   * Resolves a URL's host and checks every address it resolves to (one denied
   * address refuses the name: a resolver that mixes answers is not trusted).
   * The caller connects to these addresses only, never resolving again.
   */
  async resolve(hostname: string, port: number): Promise<dns.LookupAddress[]> {
    const bare = hostname.replace(/^\[|\]$/g, "");
    const family = net.isIP(bare);
    const addresses = family ? [{ address: bare, family }] : await dns.promises.lookup(bare, { all: true, verbatim: true });
    if (addresses.length === 0) throw Object.assign(new Error(`${bare} has no address`), { code: "ENOTFOUND" });
    for (const a of addresses) {
      const d = this.check(bare, a.address, port);
      if (!d.allowed) throw new DownloadBlocked(`${a.address}: ${d.why}`);
    }
    return addresses;
  }

  private isOwnListener(ip: IpAddress, port: number): boolean {
    return this.own.some((o) => {
      if (o.port !== port) return false;
      // Loopback aliases (127.x, ::1, 0.0.0.0) reach the listener whatever address it is bound to.
      if (isLoopback(ip) || isUnspecified(ip)) return true;
      if (o.host === "any") return localAddresses().some((l) => sameIp(l, ip));
      return o.host !== undefined && sameIp(o.host, ip);
    });
  }
}

function matches(rule: PolicyRule, name: string, ip: IpAddress): boolean {
  if (rule.kind === "range") return inRange(ip, rule.range);
  return name === rule.name || (rule.subdomains && name.endsWith(`.${rule.name}`));
}

function ruleText(rule: PolicyRule): string {
  return rule.kind === "range" ? rule.range.text : rule.text;
}

function normalizeName(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

function localAddresses(): IpAddress[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .map((i) => (i ? parseIp(i.address) : undefined))
    .filter((x): x is IpAddress => x !== undefined);
}
