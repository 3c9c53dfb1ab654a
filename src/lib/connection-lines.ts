// How a customer connects to a proxy through the shop's gateway, as text to paste: the
// gateway's port per protocol, `host:port:user:pass`, the http://, https:// and socks5h://
// proxy URLs and a curl command against the shop's IP-echo endpoint (GET /api/ip) that works as
// written. One module for the proxy card, the exports and the dashboard's example.
// (In lib, not in features/proxies: the dashboard overview, another feature, uses it too.)
import type { ProxyType } from "@/lib/catalog";
import { endpoint } from "@/lib/endpoint";

/** The gateway's ports a proxy answers on, as the server sends them (`ports` of every customer answer). */
export interface ProxyPorts {
  http?: number;
  socks5?: number;
  /** The HTTP proxy inside TLS (`https://` proxy URLs). */
  https?: number;
}

/** What the lines are made of: a proxy as the records API and /api/v1 answer it. */
export interface Connectable {
  host: string;
  port: number;
  type: ProxyType;
  username: string;
  password: string;
  /** Absent in answers from servers before the gateway (older answers, helpers' seeds): see proxyPorts. */
  ports?: ProxyPorts | null | undefined;
}

/** The shop's IP-echo endpoint (pocketbase/pb_hooks/lib/gateway/ip-echo.js): the caller's address as text. */
export const IP_ECHO_PATH = "/api/ip";

const isPort = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n > 0 && n < 65536;

/**
 * The ports of a proxy by protocol. The server's `ports` when it sent them; an answer
 * without them (an older server) is read from `port` and the type: SOCKS5 proxies on the
 * SOCKS5 port, every other type on the HTTP port.
 */
export function proxyPorts(proxy: Pick<Connectable, "type" | "port" | "ports">): ProxyPorts {
  const sent = proxy.ports;
  if (sent && (isPort(sent.http) || isPort(sent.socks5))) {
    return {
      ...(isPort(sent.http) ? { http: sent.http } : {}),
      ...(isPort(sent.socks5) ? { socks5: sent.socks5 } : {}),
      ...(isPort(sent.https) ? { https: sent.https } : {}),
    };
  }
  return proxy.type === "SOCKS5" ? { socks5: proxy.port } : { http: proxy.port };
}

/** "HTTP 3128 · SOCKS5 1080 · HTTPS 3129": the ports with their protocols, as a card shows them. */
export function portsLabel(proxy: Pick<Connectable, "type" | "port" | "ports">): string {
  const ports = proxyPorts(proxy);
  return [ports.http ? `HTTP ${ports.http}` : "", ports.socks5 ? `SOCKS5 ${ports.socks5}` : "", ports.https ? `HTTPS ${ports.https}` : ""]
    .filter(Boolean)
    .join(" · ");
}

/**
 * A user name or password inside a URL: percent-encoded, `!'()*` too (encodeURIComponent
 * keeps them, and a shell or a URL parser may not), so the URL survives a shell unquoted.
 */
export function urlCredential(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `host:port:username:password` (the proxy's own port; an IPv6 host in brackets): what most proxy tools import. */
export function colonLine(proxy: Pick<Connectable, "host" | "port" | "username" | "password">): string {
  return `${endpoint(proxy)}:${proxy.username}:${proxy.password}`;
}

/** `username:password@host:port`, as written (not encoded): the older plain list. */
export function authLine(proxy: Pick<Connectable, "host" | "port" | "username" | "password">): string {
  return `${proxy.username}:${proxy.password}@${endpoint(proxy)}`;
}

function proxyUrl(scheme: string, proxy: Connectable, port: number): string {
  return `${scheme}://${urlCredential(proxy.username)}:${urlCredential(proxy.password)}@${endpoint({ host: proxy.host, port })}`;
}

/** `http://user:pass@host:port` on the HTTP port, credentials percent-encoded; null when the type has no HTTP port. */
export function httpUrl(proxy: Connectable): string | null {
  const { http } = proxyPorts(proxy);
  return http ? proxyUrl("http", proxy, http) : null;
}

/**
 * `https://user:pass@host:port` on the HTTPS port (TLS to the gateway, then the HTTP
 * proxy); null when the type has none. curl takes it as `--proxy https://...`.
 */
export function httpsUrl(proxy: Connectable): string | null {
  const { https } = proxyPorts(proxy);
  return https ? proxyUrl("https", proxy, https) : null;
}

/** `socks5h://user:pass@host:port` on the SOCKS5 port (names resolved by the gateway); null when the type has none. */
export function socksUrl(proxy: Connectable): string | null {
  const { socks5 } = proxyPorts(proxy);
  return socks5 ? proxyUrl("socks5h", proxy, socks5) : null;
}

/** A word the shell passes on as is: left bare when it holds nothing special, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_.:/@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl command that prints the address a site sees through the proxy: the shop's
 * IP-echo endpoint at `origin` (the shop's own address, "https://shop.example") through
 * the HTTP port (`-x http://...`), or `--socks5-hostname` for a proxy with a SOCKS5 port only.
 */
export function curlCommand(proxy: Connectable, origin: string): string {
  const target = `${origin.replace(/\/+$/, "")}${IP_ECHO_PATH}`;
  // curl reads [ ] in a URL as a range ("[::1]" in an IPv6 origin) unless told not to.
  const glob = target.includes("[") ? " -g" : "";
  const http = httpUrl(proxy);
  const via = http ? `-x ${shellWord(http)}` : `--socks5-hostname ${shellWord(socksUrl(proxy)?.replace(/^socks5h:\/\//, "") ?? "")}`;
  return `curl${glob} ${via} ${shellWord(target)}`;
}

/** What stands for a password on screen until it is revealed. */
export const PASSWORD_MASK = "••••••••";
/** A stand-in no encoding or quoting changes, swapped for the mask after the line is built. */
const HIDDEN = "HIDDENPASSWORD";

/** A line as shown while the password is hidden: `build` run on the proxy with the mask for its password. */
export function masked(proxy: Connectable, build: (proxy: Connectable) => string | null): string {
  return (build({ ...proxy, password: HIDDEN }) ?? "").split(HIDDEN).join(PASSWORD_MASK);
}

export interface ConnectionLine {
  key: "colon" | "http" | "https" | "socks5" | "curl";
  label: string;
  /** The line to copy. */
  value: string;
  /** The line with the password masked, for the screen. */
  masked: string;
}

/** Every line a proxy offers, labelled, in the order a card lists them; lines its type has no port for are left out. */
export function connectionLines(proxy: Connectable, origin: string): ConnectionLine[] {
  const builders: [ConnectionLine["key"], string, (p: Connectable) => string | null][] = [
    ["colon", "host:port:user:pass", colonLine],
    ["http", "HTTP proxy URL", httpUrl],
    ["https", "HTTPS proxy URL", httpsUrl],
    ["socks5", "SOCKS5 proxy URL", socksUrl],
    ["curl", "curl command", (p) => curlCommand(p, origin)],
  ];
  return builders.flatMap(([key, label, build]) => {
    const value = build(proxy);
    return value === null ? [] : [{ key, label, value, masked: masked(proxy, build) }];
  });
}
