// What the overview remembers per user in this browser (localStorage, keyed by user id):
// that the overview was shown before ("Welcome back") and that the verify-e-mail banner
// was dismissed. Both are read only after hydration, so the server's HTML and the first
// client render agree.

/** An account this young may be on its first visit; an older one is always welcomed back. */
export const NEW_ACCOUNT_MS = 7 * 24 * 60 * 60 * 1000;

const seenKey = (userId: string) => `proxyshop:overview-seen:${userId}`;
const dismissedKey = (userId: string) => `proxyshop:verify-banner-dismissed:${userId}`;

function read(key: string): boolean {
  try {
    return window.localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

function remember(key: string): void {
  try {
    window.localStorage.setItem(key, "1");
  } catch {
    // Storage off (private mode, quota): the greeting and the banner just show again.
  }
}

/** Whether the account was created within NEW_ACCOUNT_MS of `now` (PocketBase's "2026-01-02 03:04:05.678Z"). */
export function isNewAccount(created: string, now: number): boolean {
  const at = Date.parse(created.replace(" ", "T"));
  return Number.isFinite(at) && now - at < NEW_ACCOUNT_MS;
}

// Decided once per user per page load, so a second render (or React's strict re-run of an
// effect) does not turn the first visit into a return.
const firstVisits = new Map<string, boolean>();

/** This browser's first showing of the overview to `userId`; records the showing. */
export function takeFirstVisit(userId: string): boolean {
  let first = firstVisits.get(userId);
  if (first === undefined) {
    first = !read(seenKey(userId));
    firstVisits.set(userId, first);
    remember(seenKey(userId));
  }
  return first;
}

export function bannerDismissed(userId: string): boolean {
  return read(dismissedKey(userId));
}

export function dismissBanner(userId: string): void {
  remember(dismissedKey(userId));
}
