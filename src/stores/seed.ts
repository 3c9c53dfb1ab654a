// Stores seeded from the server: an app page renders its first data on the server
// (src/lib/server/first-data.ts) and hands it to its island as a prop. The island puts it
// into the store before anything subscribes, so the first render in the browser shows the
// same data as the HTML (no loading screen, no hydration mismatch), and the store's loader
// skips the load the server has just made. Everything after (reloads, filters, realtime)
// works as before.
//
// Stores are module singletons: on the server they are shared by every request, so
// nothing here ever writes a store there; the server render reads the seed itself.
import { createContext, createElement, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from "react";
import type { ReadableAtom, WritableAtom } from "nanostores";

const isServer = typeof window === "undefined";

/** Stores seeded on this page (each at most once). */
const seededOnce = new WeakSet<object>();
/** Stores whose value is a seed their loader has not yet taken, with whose data it is. */
const fresh = new WeakMap<object, Seed>();

/** What a loader learns from a seed it takes. */
export interface Seed {
  /** The user whose data the seed is ("" when it is not one user's). */
  userId: string;
}

/**
 * Puts the server's state into `$store`, once per page and only while nothing listens to
 * it yet (a store already live keeps its own, newer state). No-op on the server.
 * `userId`: whose data it is, for stores that follow the signed-in user.
 */
export function seedStore<S>($store: WritableAtom<S>, value: S, userId = ""): void {
  if (isServer || seededOnce.has($store) || $store.lc > 0) return;
  seededOnce.add($store);
  fresh.set($store, { userId });
  $store.set(value);
}

/**
 * The seed `$store` holds, once: its loader calls this on mount and skips the first load
 * when it gets one (for a store that follows the user: when the seed is that user's).
 */
export function takeSeed($store: ReadableAtom<unknown>): Seed | null {
  const seed = fresh.get($store) ?? null;
  fresh.delete($store);
  return seed;
}

/**
 * The server's first data when it was read for `user`: the browser's own session (restored
 * from its storage) could be another account's, and then the seed is not shown.
 */
export function seedFor<T>(initialUser: { id: string } | null, user: { id: string }, data: T | null | undefined): T | null {
  return initialUser !== null && initialUser.id === user.id ? (data ?? null) : null;
}

/** One store's seed, made by seedOf (which checks the value's type against the store). */
export interface StoreSeed {
  store: object;
  value: unknown;
}

export function seedOf<S>($store: WritableAtom<S>, value: S | null): StoreSeed {
  return { store: $store, value };
}

/** The seeds of the page's stores, for every component under <SeedStores>. */
const PageSeeds = createContext<ReadonlyMap<object, { value: unknown; userId: string }>>(new Map());

/**
 * Hands the server's first data to every component below that reads one of these stores
 * with useSeededStore($store): a page with several components on one store seeds it once
 * here instead of passing the seed down to each. Seeds that are null are left out.
 */
export function SeedStores({ seeds, userId = "", children }: { seeds: readonly StoreSeed[]; userId?: string; children: ReactNode }) {
  const map = useMemo(
    () => new Map(seeds.filter((s) => s.value != null).map((s) => [s.store, { value: s.value, userId }] as const)),
    [seeds, userId],
  );
  return createElement(PageSeeds.Provider, { value: map }, children);
}

/**
 * `useStore` for a store the server may have seeded. With a seed: the server render shows
 * the seed (without touching the shared store), the browser seeds the store before its
 * first render reads it. Without one it is `useStore` in the browser, and on the server it
 * shows the store's initial state without mounting it (so no loader runs on the server).
 */
export function useSeededStore<S>($store: WritableAtom<S>, seed?: S | null, userId = ""): S {
  // A seed passed here wins; else the one <SeedStores> holds for this store.
  const fromPage = useContext(PageSeeds).get($store);
  const value = seed ?? (fromPage?.value as S | undefined) ?? null;
  if (value != null) seedStore($store, value, seed != null ? userId : (fromPage?.userId ?? userId));
  const subscribe = useCallback((onChange: () => void) => $store.listen(onChange), [$store]);
  const get = useCallback(() => $store.get(), [$store]);
  const server = useCallback(() => (isServer ? (value ?? ($store.init as S)) : $store.get()), [$store, value]);
  return useSyncExternalStore(subscribe, get, server);
}
