// Cookie names shared by the browser islands and the server middleware.

/** The PocketBase SDK's auth cookie, kept in sync with the browser's authStore. */
export const AUTH_COOKIE = "pb_auth";

/** The affiliate code from a `?ref=` link, remembered for 30 days. */
export const REF_COOKIE = "shop_ref";
