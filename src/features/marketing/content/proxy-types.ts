// The names plan cards give the catalog's proxy types.
import { PROXY_TYPE_LABELS as TYPE_LABELS, PROXY_TYPES, type ProxyType } from "@/lib/catalog";

/** "Residential proxies", ..., as plan cards name a plan's type. */
export const PROXY_TYPE_LABELS = Object.fromEntries(PROXY_TYPES.map((t) => [t, `${TYPE_LABELS[t]} proxies`])) as Record<ProxyType, string>;
