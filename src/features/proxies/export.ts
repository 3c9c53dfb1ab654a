// The My Proxies exports: a CSV of every matching proxy (spec 9: every value quoted,
// formulas neutralised by toCsv; the status as the page says it, "Active", and the expiry as
// an ISO 8601 UTC time) and the plain lists that proxy tools read, written by the module
// that writes a card's lines (lib/connection-lines.ts: an IPv6 host in brackets,
// credentials percent-encoded in URLs). Loaded with papaparse on the first export, not with the page.
import { toCsv } from "@/lib/csv";
import { todayStamp } from "@/lib/dates";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { EXPORT_FORMATS, type ProxyExportFormat } from "@/features/proxies/export-formats";
import { STATUS_BADGES } from "@/features/proxies/format";
import { authLine, colonLine, httpUrl, socksUrl, type Connectable } from "@/lib/connection-lines";

export const PROXY_CSV_HEADER = [
  "Host",
  "Port",
  "Username",
  "Password",
  "Type",
  "Country",
  "State",
  "City",
  "Status",
  "Expires (UTC)",
] as const;

type Exported = Pick<
  ProxyRecord,
  "host" | "port" | "username" | "password" | "type" | "country" | "state" | "city" | "status" | "expires_at"
> &
  Pick<Connectable, "ports">;

/** "2026-02-01T12:30:00Z" from PocketBase's "2026-02-01 12:30:00.000Z"; "" without a date. */
export function isoUtc(date: string): string {
  const time = date ? new Date(date.replace(" ", "T")) : null;
  return time && !Number.isNaN(time.getTime()) ? time.toISOString().replace(/\.\d{3}Z$/, "Z") : "";
}

export function proxiesCsv(proxies: readonly Exported[]): string {
  return toCsv(
    PROXY_CSV_HEADER,
    proxies.map((p) => [
      p.host,
      p.port,
      p.username,
      p.password,
      p.type,
      p.country,
      p.state,
      p.city,
      STATUS_BADGES[p.status]?.label ?? p.status,
      isoUtc(p.expires_at),
    ]),
  );
}

const lines = (values: readonly (string | null)[]): string => values.map((v) => (v === null ? "" : `${v}\n`)).join("");

/** One proxy a line, `host:port:username:password` (`[2001:db8::1]:8080:...` for IPv6). */
export function colonList(proxies: readonly Exported[]): string {
  return lines(proxies.map(colonLine));
}

/** One proxy a line, `username:password@host:port` (`...@[2001:db8::1]:8080` for IPv6). */
export function urlList(proxies: readonly Exported[]): string {
  return lines(proxies.map(authLine));
}

/** One proxy a line, `http://user:pass@host:port` on its HTTP port; proxies without one (SOCKS5) left out. */
export function httpList(proxies: readonly Exported[]): string {
  return lines(proxies.map(httpUrl));
}

/** One proxy a line, `socks5h://user:pass@host:port` on its SOCKS5 port; proxies without one (HTTP, HTTPS) left out. */
export function socksList(proxies: readonly Exported[]): string {
  return lines(proxies.map(socksUrl));
}

const WRITERS: Record<ProxyExportFormat, (proxies: readonly Exported[]) => string> = {
  csv: proxiesCsv,
  colon: colonList,
  url: urlList,
  http: httpList,
  socks5: socksList,
};

/** The file to download for `format`: name (with today's date), content and type. */
export function proxyExport(format: ProxyExportFormat, proxies: readonly Exported[], now: Date = new Date()) {
  const spec = EXPORT_FORMATS[format];
  return { fileName: spec.fileName(todayStamp(now)), content: WRITERS[format](proxies), mime: spec.mime };
}
