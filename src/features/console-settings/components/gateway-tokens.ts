// The gateway tokens of System Settings' "Proxy gateway" section: the calls
// (/api/admin/gateway-tokens, pb_hooks/lib/gateway/tokens.js), the list's store and the
// command shown with a new token. A reload aborts the request it supersedes (keepLoaded).
import { atom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { pb, withSignal } from "@/lib/pocketbase";

export interface GatewayToken {
  id: string;
  name: string;
  created: string;
  /** "" when never used. */
  last_seen_at: string;
  last_address: string;
  /** Its gateway called the shop lately (a gateway out of contact for 60 s refuses new connections). */
  in_contact: boolean;
}

export interface CreatedGatewayToken {
  id: string;
  name: string;
  /** "gwt_" + 40 characters: shown once, only its hash is stored. */
  token: string;
  /** The shop's address the gateway follows (SHOP_APP_URL). */
  pb_url: string;
}

interface GatewayTokenPage {
  items: GatewayToken[];
  totalItems: number;
}

/** Gateways are few: one page holds them (the server's most per page). */
const PER_PAGE = 100;
const PATH = "/api/admin/gateway-tokens";

/**
 * The command to run on the gateway's machine, with the token saved in gateway.token beside
 * it: listening on every address at the usual ports (it needs at least one port).
 */
export function gatewayCommand(pbUrl: string): string {
  return `pocketbase gateway --pb-url ${pbUrl} --token-file gateway.token --host 0.0.0.0 --http-port 3128 --socks-port 1080`;
}

export interface GatewayTokenListState {
  status: "loading" | "ready" | "error";
  items: GatewayToken[];
  totalItems: number;
  error: string;
}

export const $gatewayTokens = atom<GatewayTokenListState>({ status: "loading", items: [], totalItems: 0, error: "" });
const $reloads = atom(0);

keepLoaded($gatewayTokens, [$reloads], async (signal) => {
  const page = await pb().send<GatewayTokenPage>(PATH, { method: "GET", query: { perPage: PER_PAGE }, ...withSignal(signal) });
  return { status: "ready", items: page.items, totalItems: page.totalItems, error: "" };
});

export function reloadGatewayTokens(): void {
  $reloads.set($reloads.get() + 1);
}

/** Makes a token and refreshes the list; the answer holds the token, shown once. */
export async function createGatewayToken(name: string): Promise<CreatedGatewayToken> {
  const made = await pb().send<CreatedGatewayToken>(PATH, { method: "POST", body: { name }, requestKey: null });
  reloadGatewayTokens();
  return made;
}

/** Revokes a token (its gateway is refused from its next call) and refreshes the list. */
export async function revokeGatewayToken(id: string): Promise<void> {
  try {
    await pb().send(`${PATH}/${encodeURIComponent(id)}`, { method: "DELETE", requestKey: null });
  } finally {
    reloadGatewayTokens();
  }
}
