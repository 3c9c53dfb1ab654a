// The query of a list page (My Proxies, Transaction History, the console's Audit Logs and
// inventory): criteria typed in a search box (sent once typing pauses) and filters, the page,
// and the loader that reads the signed-in user's rows for it.
import { atom, type ReadableAtom, type WritableAtom } from "nanostores";
import { errorMessage, isAbort } from "@/lib/api-error";
import { $auth } from "@/stores/auth";
import { takeSeed } from "@/stores/seed";

/** Milliseconds of quiet typing before the search goes to the server. */
export const SEARCH_DELAY_MS = 300;

/** What loadPage sets of a list's state: its load status and error. */
interface ListStatus {
  status: "loading" | "ready" | "error";
  error: string;
}

export interface ListQuery<Criteria> {
  criteria: Criteria;
  page: number;
}

/** The query store of a list, what its search box shows, and the actions that change them. */
export function listQuery<Criteria extends { search: string }>(none: Criteria, { searchDelayMs = SEARCH_DELAY_MS } = {}) {
  const $query = atom<ListQuery<Criteria>>({ criteria: none, page: 1 });
  /** What the search box shows (the query's search follows it after searchDelayMs). */
  const $searchText = atom("");
  let searchTimer: ReturnType<typeof setTimeout> | undefined;

  /** Changes some criteria; back to the first page. */
  const setCriteria = (change: Partial<Criteria>) => $query.set({ criteria: { ...$query.get().criteria, ...change }, page: 1 });
  /** Whether the query is still the first one (no criteria, page 1): what a server's first page answers. */
  const isFirstQuery = (): boolean => {
    const { criteria, page } = $query.get();
    return criteria === none && page === 1;
  };

  return {
    $query,
    $searchText,
    setCriteria,
    /** The search box changed: the list follows once typing pauses. */
    setSearchText: (text: string): void => {
      $searchText.set(text);
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => {
        if ($query.get().criteria.search !== text.trim()) setCriteria({ search: text.trim() } as Partial<Criteria>);
      }, searchDelayMs);
    },
    clearFilters: (): void => {
      clearTimeout(searchTimer);
      $searchText.set("");
      $query.set({ criteria: none, page: 1 });
    },
    goToPage: (page: number): void => {
      $query.set({ ...$query.get(), page: Math.max(1, page) });
    },
    /**
     * Keeps `$list` on the page the query asks for, read for the signed-in user by `fetchPage`
     * (again whenever the query, one of `triggers` or the user changes; loadPage); `ready`
     * makes the list's state of an answer. The server's first page (seeded) stands for the
     * first load while the query is still the first one. Answers the stop function (for onMount).
     */
    followPages: <State extends ListStatus, Page>(
      $list: WritableAtom<State>,
      fetchPage: (userId: string, criteria: Criteria, page: number, signal: AbortSignal) => Promise<Page>,
      ready: (result: Page, criteria: Criteria) => State | null,
      triggers: ReadonlyArray<ReadableAtom<unknown>> = [],
    ): (() => void) =>
      followUserLoads(
        [$query, ...triggers],
        (userId, signal) => {
          const { criteria, page } = $query.get();
          loadPage($list, fetchPage(userId, criteria, page, signal), signal, (result) => ready(result, criteria));
        },
        $list,
        isFirstQuery,
      ),
  };
}

/**
 * Runs `load` for the signed-in user now, again whenever one of `triggers` changes or the
 * user changes, aborting the one before. A seed the server put into `$seeded` stands for
 * the first load while `seedStillAnswers()` (the query is still the first one). Answers
 * the function that stops it (for onMount).
 */
export function followUserLoads(
  triggers: ReadonlyArray<ReadableAtom<unknown>>,
  load: (userId: string, signal: AbortSignal) => void,
  $seeded: ReadableAtom<unknown>,
  seedStillAnswers: () => boolean = () => true,
): () => void {
  let controller: AbortController | null = null;
  let userId = "";
  const run = () => {
    userId = $auth.get().user?.id ?? "";
    controller?.abort();
    controller = new AbortController();
    if (userId) load(userId, controller.signal);
  };
  const offs = triggers.map((store) => store.listen(run));
  offs.push($auth.listen(({ user }) => (user?.id ?? "") !== userId && run()));
  const seed = takeSeed($seeded);
  if (seed && seed.userId === ($auth.get().user?.id ?? "") && seedStillAnswers()) userId = seed.userId;
  else run();
  return () => {
    for (const off of offs) off();
    controller?.abort();
  };
}

/**
 * Loads one page into `$list`: marks it loading (the rows shown stay), then sets what
 * `ready` makes of the answer (null: set nothing, `ready` moved the query instead), or
 * the error. An answer or error of an aborted request is dropped.
 */
export function loadPage<State extends ListStatus, Page>(
  $list: WritableAtom<State>,
  request: Promise<Page>,
  signal: AbortSignal,
  ready: (page: Page) => State | null,
): void {
  $list.set({ ...$list.get(), status: "loading", error: "" });
  request.then(
    (page) => {
      const next = signal.aborted ? null : ready(page);
      if (next) $list.set(next);
    },
    (err: unknown) => {
      if (signal.aborted || isAbort(err)) return;
      $list.set({ ...$list.get(), status: "error", error: errorMessage(err) });
    },
  );
}
