import { PROXY_TYPE_LABELS, type ProxyType } from "@/lib/catalog";

/** A proxy's or an order's type as the catalog names it; "Mixed" for a renewal of several types. */
export const proxyTypeLabel = (type: ProxyType | "") => (type ? PROXY_TYPE_LABELS[type] : "Mixed");

/** "ASSIGNED" -> "Assigned". */
export const statusLabel = (status: string) => status.charAt(0) + status.slice(1).toLowerCase();
