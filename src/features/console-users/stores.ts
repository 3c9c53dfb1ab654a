// User Management state: the list query (kept in the URL: ?search=&role=&page=), the page
// it answers, the banner of the last action, and the open user detail. A new query aborts
// the request it supersedes; search text is debounced.
import { atom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { seedOf, type StoreSeed } from "@/stores/seed";
import { errorMessage, isAbort } from "@/lib/api-error";
import {
  fetchUserDetail,
  fetchUsers,
  setAdmin,
  type AdminUser,
  type RoleFilter,
  type UserDetail,
  type UserPage,
  type UserQuery,
} from "@/features/console-users/api";

export const SEARCH_DELAY_MS = 250;
/** The spec's text for a failed list (section 8). */
export const FETCH_USERS_FAILED = "Failed to fetch users";

export interface UserListState {
  status: "loading" | "ready" | "error";
  data: UserPage | null;
  /** The query the data answers (for the empty state's wording). */
  query: UserQuery;
  error: string;
}

const ROLES: readonly RoleFilter[] = ["all", "admins", "users"];
export const isRole = (value: string): value is RoleFilter => (ROLES as readonly string[]).includes(value);

/** The list query a page URL's ?search=&role=&page= asks for (the server reads it the same way). */
export function queryFromParams(params: URLSearchParams): UserQuery {
  const role = params.get("role") ?? "all";
  return {
    search: (params.get("search") ?? "").trim(),
    role: isRole(role) ? role : "all",
    page: Math.max(1, Math.floor(Number(params.get("page")) || 1)),
  };
}

function queryFromUrl(): UserQuery {
  return queryFromParams(new URLSearchParams(typeof window === "undefined" ? "" : window.location.search));
}

function writeUrl(query: UserQuery): void {
  const params = new URLSearchParams(window.location.search);
  const set = (name: string, value: string, empty: string) => (value === empty ? params.delete(name) : params.set(name, value));
  set("search", query.search, "");
  set("role", query.role, "all");
  set("page", String(query.page), "1");
  const search = params.toString();
  window.history.replaceState(window.history.state, "", `${window.location.pathname}${search ? `?${search}` : ""}`);
}

export const $userQuery = atom<UserQuery>(queryFromUrl());
export const $userSearchText = atom($userQuery.get().search);
export const $users = atom<UserListState>({ status: "loading", data: null, query: $userQuery.get(), error: "" });
/** The user whose balance the balance dialog adjusts (null: closed). */
export const $balanceUser = atom<AdminUser | null>(null);

export function openBalanceDialog(user: AdminUser): void {
  $balanceUser.set(user);
}

export function closeBalanceDialog(): void {
  $balanceUser.set(null);
}

/** The outcome of the last action (balance change, admin toggle, refund). */
export const $userNotice = atom<{ tone: "success" | "error"; text: string } | null>(null);

const $reloads = atom(0);

keepLoaded(
  $users,
  [$userQuery, $reloads],
  async (signal) => {
    const query = $userQuery.get();
    writeUrl(query);
    return { status: "ready", data: await fetchUsers(query, signal), query, error: "" };
  },
  FETCH_USERS_FAILED,
);

/**
 * The stores' states for the page the server read for `query` (its URL's). The query and
 * the search box are seeded too: on the server they cannot read the URL themselves.
 */
export function usersSeeds(query: UserQuery, first: UserPage | null): StoreSeed[] {
  return [
    seedOf($users, first ? { status: "ready", data: first, query, error: "" } : null),
    seedOf($userQuery, query),
    seedOf($userSearchText, query.search),
  ];
}

let searchTimer: ReturnType<typeof setTimeout> | undefined;

export function setUserSearch(text: string): void {
  $userSearchText.set(text);
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    const search = text.trim();
    if ($userQuery.get().search !== search) $userQuery.set({ ...$userQuery.get(), search, page: 1 });
  }, SEARCH_DELAY_MS);
}

export function setUserRole(role: RoleFilter): void {
  $userQuery.set({ ...$userQuery.get(), role, page: 1 });
}

export function clearUserFilters(): void {
  clearTimeout(searchTimer);
  $userSearchText.set("");
  $userQuery.set({ search: "", role: "all", page: 1 });
}

export function goToUserPage(page: number): void {
  $userQuery.set({ ...$userQuery.get(), page: Math.max(1, page) });
}

export function reloadUsers(): void {
  $reloads.set($reloads.get() + 1);
}

export function showNotice(tone: "success" | "error", text: string): void {
  $userNotice.set({ tone, text });
}

/** Removes admin rights (granting goes through the make-admin tool); the spec's texts for the outcome. */
export async function removeAdmin(userId: string, email: string): Promise<void> {
  try {
    await setAdmin(userId, false);
    showNotice("success", `${email} removed admin privileges`);
    reloadUsers();
  } catch (err) {
    showNotice("error", errorMessage(err));
  }
}

// ---- The user tools (a confirm dialog each) ---------------------------------------

export type UserToolKind = "make-admin" | "email" | "verify" | "verification" | "suspend" | "unsuspend" | "delete";

/** The tool whose confirm dialog is open, and the user it acts on (null: none). */
export const $userTool = atom<{ kind: UserToolKind; user: AdminUser } | null>(null);

export function openUserTool(kind: UserToolKind, user: AdminUser): void {
  $userTool.set({ kind, user });
}

export function closeUserTool(): void {
  $userTool.set(null);
}

/** After a tool succeeded: its message, the list and the open detail read again. */
export function userToolDone(message: string): void {
  const userId = $userTool.get()?.user.id;
  closeUserTool();
  showNotice("success", message);
  reloadUsers();
  if (userId && $userDetail.get().userId === userId) openUserDetail(userId);
}

// ---- The user detail (drawer) ----------------------------------------------------

export interface DetailState {
  userId: string | null;
  status: "idle" | "loading" | "ready" | "error";
  data: UserDetail | null;
  error: string;
}

export const $userDetail = atom<DetailState>({ userId: null, status: "idle", data: null, error: "" });
let detailController: AbortController | null = null;

export function openUserDetail(userId: string): void {
  detailController?.abort();
  const current = new AbortController();
  detailController = current;
  const same = $userDetail.get().userId === userId;
  $userDetail.set({ userId, status: "loading", data: same ? $userDetail.get().data : null, error: "" });
  fetchUserDetail(userId, current.signal).then(
    (data) => {
      if (!current.signal.aborted) $userDetail.set({ userId, status: "ready", data, error: "" });
    },
    (err: unknown) => {
      if (current.signal.aborted || isAbort(err)) return;
      $userDetail.set({ ...$userDetail.get(), status: "error", error: errorMessage(err) });
    },
  );
}

export function closeUserDetail(): void {
  detailController?.abort();
  $userDetail.set({ userId: null, status: "idle", data: null, error: "" });
}
