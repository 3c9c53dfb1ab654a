// The gateway tokens of System Settings' "Proxy gateway" section: the calls (the contract's
// gateway routes, @/lib/api-contract/admin/gateway, through the typed caller), the list's store and the
// command shown with a new token. A reload aborts the request it supersedes (keepLoaded).
import { atom } from "nanostores";
import { api } from "@/lib/api-client";
import { createGatewayToken as createRoute, listGatewayTokens, revokeGatewayToken as revokeRoute } from "@/lib/api-contract/admin/gateway";
import type { ResponseOf } from "@/lib/api-contract/define";
import { keepLoaded } from "@/lib/keep-loaded";

export type GatewayToken = ResponseOf<typeof listGatewayTokens>["items"][number];
/** A new token ("gwt_" + 40 characters: shown once, only its hash is stored) and the shop's address its gateway follows. */
export type CreatedGatewayToken = ResponseOf<typeof createRoute>;

/** Gateways are few: one page holds them (the server's most per page). */
const PER_PAGE = 100;

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
  const page = await api.call(listGatewayTokens, { query: { perPage: PER_PAGE }, signal });
  return { status: "ready", items: page.items, totalItems: page.totalItems, error: "" };
});

export function reloadGatewayTokens(): void {
  $reloads.set($reloads.get() + 1);
}

/** Makes a token and refreshes the list; the answer holds the token, shown once. */
export async function createGatewayToken(name: string): Promise<CreatedGatewayToken> {
  const made = await api.call(createRoute, { body: { name } });
  reloadGatewayTokens();
  return made;
}

/** Revokes a token (its gateway is refused from its next call) and refreshes the list. */
export async function revokeGatewayToken(id: string): Promise<void> {
  try {
    await api.call(revokeRoute, { params: { id } });
  } finally {
    reloadGatewayTokens();
  }
}
