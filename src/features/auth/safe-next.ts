// Where to go after sign-in: the page the guard sent the user away from, when it is a
// plain same-site path; anything else (other sites, protocol-relative, backslashes,
// control characters) falls back to the dashboard.
export const DEFAULT_AFTER_SIGN_IN = "/dashboard";

export function safeNext(raw: string | null | undefined): string {
  if (!raw || raw.length > 2048) return DEFAULT_AFTER_SIGN_IN;
  // One leading slash, then not another slash or a backslash; no backslashes or control chars anywhere.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (!/^\/(?![/\\])/.test(raw) || /[\\\u0000-\u001f\u007f]/.test(raw)) return DEFAULT_AFTER_SIGN_IN;
  try {
    const base = "http://same.invalid";
    const url = new URL(raw, base);
    if (url.origin !== base) return DEFAULT_AFTER_SIGN_IN;
    if (url.pathname === "/login" || url.pathname === "/signup") return DEFAULT_AFTER_SIGN_IN;
    return url.pathname + url.search + url.hash;
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
}
