// The signed-in customer's balance, live: loaded once, then kept current by a realtime
// subscription to their own `balances` row (PocketBase checks the row's view rule per
// event), and reloaded after every reconnect so nothing is missed while offline.
// Any island that shows the balance uses $balance; it starts with the first subscriber.
// A page that rendered the balance on the server seeds it (useBalance): it shows at once
// and the store still loads and follows it live from there.
import { atom, onMount } from "nanostores";
import { useMemo } from "react";
import { readFailed } from "@/lib/api-error";
import { pb, withSignal, type TypedPocketBase } from "@/lib/pocketbase";
import type { BalanceRecord } from "@/lib/pocketbase-types";
import { followLive, type Live } from "@/lib/realtime";
import { followUser } from "@/stores/follow-user";
import { takeSeed, useSeededStore } from "@/stores/seed";

export interface BalanceState {
  status: "loading" | "ready" | "error";
  cents: number;
  error: string;
}

const LOADING: BalanceState = { status: "loading", cents: 0, error: "" };

export const $balance = atom<BalanceState>(LOADING);

/** The balance the server rendered, and whose it is. */
export interface BalanceSeed {
  userId: string;
  cents: number;
}

/** The live balance, starting from the one the server rendered (when there is one). */
export function useBalance(seed?: BalanceSeed | null): BalanceState {
  const state = useMemo<BalanceState | null>(() => (seed ? { status: "ready", cents: seed.cents, error: "" } : null), [seed]);
  return useSeededStore($balance, state, seed?.userId);
}

/** Shows a balance a purchase or payment answered with (the realtime event follows). */
export function setBalance(cents: number): void {
  $balance.set({ status: "ready", cents, error: "" });
}

async function load(userId: string, signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<BalanceRecord | null> {
  const list = await client.collection("balances").getList(1, 1, {
    filter: client.filter("user_id = {:id}", { id: userId }),
    skipTotal: true,
    ...withSignal(signal),
  });
  return list.items[0] ?? null;
}

/** One user's balance in cents (0 before their first ledger row), read with `client`'s session. */
export async function fetchBalanceCents(userId: string, signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<number> {
  return (await load(userId, signal, client))?.balance_cents ?? 0;
}

/**
 * Follows one user's balance (lib/realtime.ts). The row is read once to learn its id, then
 * subscribed to and read again. A read that answers after a newer event keeps the newer
 * figure (rows carry their `updated` time).
 */
function follow(userId: string): () => void {
  let newest = "";
  const live: Live = followLive({
    what: "balance",
    subscribe: async () => {
      const row = await refresh();
      if (live.stopped || !row) return null;
      return pb()
        .collection("balances")
        .subscribe(row.id, (event) => {
          if (event.action !== "delete") show(event.record);
        });
    },
    reload: refresh,
  });

  function show(row: Pick<BalanceRecord, "balance_cents" | "updated">) {
    if (live.stopped || row.updated < newest) return;
    newest = row.updated;
    setBalance(row.balance_cents);
  }

  async function refresh() {
    try {
      const row = await load(userId);
      if (row) show(row);
      else if (!live.stopped) setBalance(0);
      return row;
    } catch (err) {
      if (!live.stopped) $balance.set(readFailed($balance.get(), err));
      return null;
    }
  }

  return live.stop;
}

onMount($balance, () =>
  followUser(
    (userId) => {
      // A balance the server rendered for this user stays on screen while follow() confirms it.
      if (takeSeed($balance)?.userId !== userId) $balance.set(LOADING);
      return follow(userId);
    },
    () => $balance.set(LOADING),
  ),
);
