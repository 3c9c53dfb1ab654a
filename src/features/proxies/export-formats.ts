// The My Proxies downloads: button label, file name (with the date) and type.
// Kept apart from export.ts so the page loads the CSV writer only when exporting.

export type ProxyExportFormat = "csv" | "colon" | "url" | "http" | "socks5";

export const EXPORT_FORMATS: Record<ProxyExportFormat, { label: string; mime: string; fileName: (stamp: string) => string }> = {
  csv: { label: "Export CSV", mime: "text/csv;charset=utf-8", fileName: (stamp) => `proxies-${stamp}.csv` },
  colon: {
    label: "Export host:port:username:password",
    mime: "text/plain;charset=utf-8",
    fileName: (stamp) => `proxies-${stamp}.txt`,
  },
  url: {
    label: "Export username:password@host:port",
    mime: "text/plain;charset=utf-8",
    fileName: (stamp) => `proxies-auth-${stamp}.txt`,
  },
  // The proxy URLs a card offers (lib/connection-lines.ts): proxies without that protocol are left out.
  http: {
    label: "Export http:// URLs",
    mime: "text/plain;charset=utf-8",
    fileName: (stamp) => `proxies-http-${stamp}.txt`,
  },
  socks5: {
    label: "Export socks5h:// URLs",
    mime: "text/plain;charset=utf-8",
    fileName: (stamp) => `proxies-socks5h-${stamp}.txt`,
  },
};
