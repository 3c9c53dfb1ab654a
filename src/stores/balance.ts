// The signed-in customer's balance, live: loaded once, then kept current by a realtime
// subscription to their own `balances` row (PocketBase checks the row's view rule per
// event), and reloaded after every reconnect so nothing is missed while offline.
// Any island that shows the balance uses $balance; it starts with the first subscriber.
// A page that rendered the balance on the server seeds it (useBalance): it shows at once
// and the store still loads and follows it live from there.
import { atom, onMount } from "nanostores";
import { useMemo } from "react";
import { errorMessage } from "@/lib/api-error";
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { BalanceRecord } from "@/lib/pocketbase-types";
import { $auth } from "@/stores/auth";
import { takeSeed, useSeededStore } from "@/stores/seed";

export interface BalanceState {
  status: "loading" | "ready" | "error";
  cents: number;
  error: string;
}

export const $balance = atom<BalanceState>({ status: "loading", cents: 0, error: "" });

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
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
  return list.items[0] ?? null;
}

/** One user's balance in cents (0 before their first ledger row), read with `client`'s session. */
export async function fetchBalanceCents(userId: string, signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<number> {
  return (await load(userId, signal, client))?.balance_cents ?? 0;
}

/**
 * Follows one user's balance until the returned function is called. The row is read once
 * to learn its id, subscribed to, then read again: a change between the first read and the
 * subscription would otherwise be missed. A read that answers after a newer event keeps
 * the newer figure (rows carry their `updated` time).
 */
function follow(userId: string): () => void {
  let stopped = false;
  let unsubscribe: (() => Promise<void>) | null = null;
  let newest = "";

  const show = (row: Pick<BalanceRecord, "balance_cents" | "updated">) => {
    if (stopped || row.updated < newest) return;
    newest = row.updated;
    setBalance(row.balance_cents);
  };

  const refresh = async () => {
    try {
      const row = await load(userId);
      if (row) show(row);
      else if (!stopped) setBalance(0);
      return row;
    } catch (err) {
      if (!stopped)
        $balance.set({ ...$balance.get(), status: $balance.get().status === "ready" ? "ready" : "error", error: errorMessage(err) });
      return null;
    }
  };

  void (async () => {
    const row = await refresh();
    if (stopped || !row) return;
    const offRecord = await pb()
      .collection("balances")
      .subscribe(row.id, (event) => {
        if (event.action !== "delete") show(event.record);
      });
    void refresh();
    // PB_CONNECT fires again after a reconnect: catch up on what happened meanwhile. The
    // record subscription above has usually connected already; only later connects count.
    let connected = pb().realtime.isConnected;
    const offConnect = await pb().realtime.subscribe("PB_CONNECT", () => {
      if (connected) void refresh();
      connected = true;
    });
    unsubscribe = async () => {
      await offRecord();
      await offConnect();
    };
    if (stopped) void unsubscribe();
  })();

  return () => {
    stopped = true;
    void unsubscribe?.();
  };
}

onMount($balance, () => {
  let stop: (() => void) | null = null;
  let userId: string | null = null;
  const unbind = $auth.subscribe(({ user }) => {
    if ((user?.id ?? null) === userId) return;
    stop?.();
    stop = null;
    userId = user?.id ?? null;
    // A balance the server rendered for this user stays on screen while follow() confirms it.
    const seeded = userId !== null && takeSeed($balance)?.userId === userId;
    if (!seeded) $balance.set({ status: "loading", cents: 0, error: "" });
    if (userId) stop = follow(userId);
  });
  return () => {
    unbind();
    stop?.();
  };
});
