// Who is on the other end of a request: the client's address and whether it reached us over
// TLS. Only a trusted reverse proxy may tell us (X-Forwarded-For / X-Forwarded-Proto); what
// anyone else claims about themselves is ignored. Addresses and ranges are proxy-addr's.
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import proxyaddr from "proxy-addr";

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

/** A predicate telling whether a peer address is a proxy we believe. */
export function trustedPeers(trust: TrustedProxies): (peer: string) => boolean {
  if (trust === false) return () => false;
  const check = proxyaddr.compile(trust === true ? ["loopback", "uniquelocal", "linklocal"] : ["loopback", ...trust]);
  return (peer) => check(peer, 0);
}

const loopback = proxyaddr.compile("loopback");

export function isLoopback(address: string): boolean {
  return loopback(address, 0);
}

/** "::ffff:127.0.0.1" → "127.0.0.1" (a dual-stack socket reports IPv4 peers this way). */
export function unmapIPv4(address: string): string {
  return address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
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
  // One hop: the right-most X-Forwarded-For value is the one our proxy appended; anything
  // left of it is what the client claimed. A value that is not an address is ignored.
  const forwarded = unmapIPv4(proxyaddr(req, (_, hop) => hop === 0));
  const proto = lastValue(req.headers["x-forwarded-proto"]).toLowerCase();
  return { ip: isIP(forwarded) ? forwarded : peer, peer, secure: tls || proto === "https" };
}
