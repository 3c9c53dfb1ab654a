// A list of the developer API's records (API keys, webhook endpoints) kept loaded while the
// panel shows it (lib/keep-loaded.ts: a reload aborts the request it supersedes, a failed read
// keeps the rows shown), and the row the server answered a change with put in place.
import { atom, type ReadableAtom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";

export interface KeptListState<Item> {
  status: "loading" | "ready" | "error";
  items: Item[];
  error: string;
}

export interface KeptList<Item> {
  $list: ReadableAtom<KeptListState<Item>>;
  reload: () => void;
  /** Puts an item the server answered in place of its old row (or first, when new). */
  show: (item: Item) => void;
  /** Takes an item out of the list. */
  drop: (id: string) => void;
}

export function keptList<Item extends { id: string }>(load: (signal: AbortSignal) => Promise<{ items: Item[] }>): KeptList<Item> {
  const $list = atom<KeptListState<Item>>({ status: "loading", items: [], error: "" });
  const $reloads = atom(0);
  keepLoaded($list, [$reloads], async (signal) => ({ status: "ready", items: (await load(signal)).items, error: "" }));
  const setItems = (items: (current: Item[]) => Item[]) => {
    const state = $list.get();
    $list.set({ ...state, items: items(state.items) });
  };
  return {
    $list,
    reload: () => $reloads.set($reloads.get() + 1),
    show: (item) =>
      setItems((items) =>
        items.some((row) => row.id === item.id) ? items.map((row) => (row.id === item.id ? item : row)) : [item, ...items],
      ),
    drop: (id) => setItems((items) => items.filter((row) => row.id !== id)),
  };
}
