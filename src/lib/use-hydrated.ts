import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server-rendered HTML and while the island hydrates (what the server rendered),
 * true right after and in anything the browser mounts later. Forms keep their submit buttons
 * disabled until then, so an early click can never fall back to a native GET submit that
 * would put the typed values (passwords) in the URL.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
