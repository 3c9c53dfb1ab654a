// Where to go after sign-in: the page the guard sent the user away from, when it is a
// plain same-site path; anything else (other sites, protocol-relative, backslashes,
// control characters, also once percent-decoded) falls back to the dashboard. Every
// sign-in path (password, e-mailed code, verification link) leaves through
// signInDestination.
export const DEFAULT_AFTER_SIGN_IN = "/dashboard";
const ONBOARDING = "/onboarding";

/** One leading slash, then not another slash or a backslash. */
const SAME_SITE_PATH = /^\/(?![/\\])/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const REFUSED_CHARS = /[\\\u0000-\u001f\u007f]/;

function isPlainPath(path: string): boolean {
  return SAME_SITE_PATH.test(path) && !REFUSED_CHARS.test(path);
}

export function safeNext(raw: string | null | undefined): string {
  if (!raw || raw.length > 2048 || !isPlainPath(raw)) return DEFAULT_AFTER_SIGN_IN;
  try {
    // A server or proxy that decodes the path must not find "//host" or "/\host" in it.
    if (!isPlainPath(decodeURIComponent(raw))) return DEFAULT_AFTER_SIGN_IN;
    const base = "http://same.invalid";
    const url = new URL(raw, base);
    if (url.origin !== base) return DEFAULT_AFTER_SIGN_IN;
    if (url.pathname === "/login" || url.pathname === "/signup") return DEFAULT_AFTER_SIGN_IN;
    return url.pathname + url.search + url.hash;
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
}

/** `path` is `root` itself or a page under it ("/console", "/console/users", "/console?x"). */
function isUnder(path: string, root: string): boolean {
  if (!path.startsWith(root)) return false;
  const rest = path.slice(root.length);
  return rest === "" || /^[/?#]/.test(rest);
}

/**
 * Where a user who just signed in goes: the safe ?next (a customer is never sent into the
 * console, which would refuse them), else /dashboard; an account that has not finished
 * onboarding goes there first, carrying the next along.
 */
export function signInDestination(
  rawNext: string | null | undefined,
  user: { is_admin?: boolean | undefined; onboarding_completed?: boolean | undefined } | null | undefined,
): string {
  let target = safeNext(rawNext);
  if (!user?.is_admin && isUnder(target, "/console")) target = DEFAULT_AFTER_SIGN_IN;
  if (user && !user.onboarding_completed && !isUnder(target, ONBOARDING)) {
    return target === DEFAULT_AFTER_SIGN_IN ? ONBOARDING : `${ONBOARDING}?next=${encodeURIComponent(target)}`;
  }
  return target;
}
