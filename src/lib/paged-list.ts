// The state of a paged console list: one page of rows, where it sits among the pages, the
// criteria it answers (so the empty state can say "no entries match" rather than "none
// yet") and the load status. keepLoaded (lib/keep-loaded.ts) keeps it current.

export interface Page<Item> {
  items: Item[];
  page: number;
  totalItems: number;
  totalPages: number;
}

export interface PagedListState<Item, Criteria> extends Page<Item> {
  status: "loading" | "ready" | "error";
  /** The criteria the items answer. */
  criteria: Criteria;
  error: string;
}

/** A list that has not loaded yet. */
export function pendingList<Item, Criteria>(criteria: Criteria): PagedListState<Item, Criteria> {
  return { status: "loading", items: [], page: 1, totalItems: 0, totalPages: 0, criteria, error: "" };
}

/** The list showing `result`, the page the server answered for `criteria`. */
export function loadedList<Item, Criteria>(result: Page<Item>, criteria: Criteria): PagedListState<Item, Criteria> {
  return {
    status: "ready",
    error: "",
    criteria,
    items: result.items,
    page: result.page,
    totalItems: result.totalItems,
    totalPages: result.totalPages,
  };
}
