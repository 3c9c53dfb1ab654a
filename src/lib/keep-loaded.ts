// A store that loads its data while someone is subscribed: the first subscriber starts a
// load, every change of a trigger store (a query, a reload counter) starts a new one and
// aborts the superseded request, and the last unsubscribe aborts what is in flight.
import { onMount, type ReadableAtom, type WritableAtom } from "nanostores";
import { errorMessage, isAbort } from "@/lib/api-error";
import { takeSeed } from "@/stores/seed";

interface Loadable {
  status: "loading" | "ready" | "error";
  error: string;
}

/**
 * Keeps `$store` loaded with `load`. `load` answers the next state, or null to set nothing
 * (it has already moved a trigger, which starts another load). A failure keeps the data
 * shown and sets status "error" with the server's message, or with `failureText` when the
 * page has a fixed one (the failure itself is then logged). A store seeded with the
 * server's first data (stores/seed.ts) skips the first load: the server has just made it.
 */
export function keepLoaded<State extends Loadable>(
  $store: WritableAtom<State>,
  triggers: ReadonlyArray<ReadableAtom<unknown>>,
  load: (signal: AbortSignal) => Promise<State | null>,
  failureText?: string,
): void {
  onMount($store, () => {
    let controller: AbortController | null = null;
    const run = () => {
      controller?.abort();
      const current = new AbortController();
      controller = current;
      $store.set({ ...$store.get(), status: "loading", error: "" });
      load(current.signal).then(
        (next) => {
          if (!current.signal.aborted && next) $store.set(next);
        },
        (err: unknown) => {
          if (current.signal.aborted || isAbort(err)) return;
          if (failureText) console.error(failureText, err);
          $store.set({ ...$store.get(), status: "error", error: failureText ?? errorMessage(err) });
        },
      );
    };
    const offs = triggers.map((trigger) => trigger.listen(run));
    if (takeSeed($store) === null) run();
    return () => {
      for (const off of offs) off();
      controller?.abort();
    };
  });
}
