import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * A query parameter of the current URL: null in the server-rendered HTML, the value ("" when
 * absent) once hydrated, without a second render pass through an effect.
 */
export function useSearchParam(name: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => new URLSearchParams(window.location.search).get(name) ?? "",
    () => null,
  );
}
