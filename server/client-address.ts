// Who is on the other end of a request: the client's address and whether it reached us over
// TLS. Only a trusted reverse proxy may tell us (X-Forwarded-For / X-Forwarded-Proto); what
// anyone else claims about themselves is ignored.
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/**
 * Which peers may speak for the client. `false`: nobody (we face the clients directly).
 * `true`: a reverse proxy on this machine or in a private network (loopback, RFC 1918,
 * IPv6 unique-local and link-local peers). A list: exactly those addresses or CIDR ranges,
 * plus loopback. A peer on a public address is never trusted with `true`, so a client that
 * reaches the web port directly cannot forge its address even when TRUST_PROXY is on.
 */
export type TrustedProxies = boolean | readonly string[];

export interface ClientAddress {
  /** The client's address as far as we can tell (the socket peer unless a trusted proxy says otherwise). */
  ip: string;
  /** The TCP peer: a reverse proxy, or the client itself. */
  peer: string;
  /** True when the client's connection to us (or to the trusted proxy) used TLS. */
  secure: boolean;
}

function addRange(list: BlockList, range: string): void {
  const [address = "", bits] = range.split("/");
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  if (isIP(address) === 0) throw new Error(`Not an IP address or CIDR range: "${range}"`);
  if (bits === undefined) list.addAddress(address, family);
  else list.addSubnet(address, Number(bits), family);
}

const LOOPBACK = ["127.0.0.0/8", "::1/128"];
const PRIVATE = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fe80::/10", "169.254.0.0/16"];

/** A predicate telling whether a peer address is a proxy we believe. */
export function trustedPeers(trust: TrustedProxies): (peer: string) => boolean {
  if (trust === false) return () => false;
  const list = new BlockList();
  for (const range of [...LOOPBACK, ...(trust === true ? PRIVATE : trust)]) addRange(list, range);
  return (peer) => {
    const address = unmapIPv4(peer);
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
  };
}

/** "::ffff:127.0.0.1" → "127.0.0.1" (a dual-stack socket reports IPv4 peers this way). */
export function unmapIPv4(address: string): string {
  return address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

export function isLoopback(address: string): boolean {
  const ip = unmapIPv4(address);
  return ip === "::1" || (isIP(ip) === 4 && ip.startsWith("127."));
}

/** The right-most value of a (possibly repeated) comma-separated header: the one our proxy added. */
function lastValue(header: string | string[] | undefined): string {
  const joined = Array.isArray(header) ? header.join(",") : (header ?? "");
  return joined.split(",").pop()?.trim() ?? "";
}

export function resolveClient(req: IncomingMessage, isTrustedPeer: (peer: string) => boolean): ClientAddress {
  const peer = unmapIPv4(req.socket.remoteAddress ?? "");
  const tls = "encrypted" in req.socket && req.socket.encrypted === true;
  if (!isTrustedPeer(peer)) return { ip: peer, peer, secure: tls };
  // The right-most X-Forwarded-For value is the one our proxy appended; anything left of it
  // is what the client claimed. A value that is not an address is ignored.
  const forwarded = unmapIPv4(lastValue(req.headers["x-forwarded-for"]));
  const proto = lastValue(req.headers["x-forwarded-proto"]).toLowerCase();
  return { ip: isIP(forwarded) ? forwarded : peer, peer, secure: tls || proto === "https" };
}
