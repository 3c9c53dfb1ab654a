// What the app-first-data specs share: the HTML the server sends to a session, and a
// browser opened on that session that watches for the loading screen and console errors.
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { sessionFor, signInContext, type BrowserSession } from "../../support/browser-session.ts";
import { E2E } from "./env.ts";

export const LOADING_TEXT = "Loading Dashboard";

/** A session signed in with PocketBase directly, as the app's sign-in leaves it. */
export const sessionOf = (user: { email: string; password: string }) => sessionFor(E2E.pocketbaseUrl, user.email, user.password);

/** The HTML the server sends for `path` to this session, without following redirects. */
export async function htmlFor(page: Page, path: string, cookie: string) {
  const res = await page.request.get(path, { headers: { Cookie: `pb_auth=${cookie}` }, maxRedirects: 0 });
  return { status: res.status(), headers: res.headers(), html: res.status() === 200 ? await res.text() : "" };
}

export interface PageWatch {
  errors: string[];
  sawLoading: () => Promise<boolean>;
}

/**
 * Watches the page from its first byte: whether the loading screen's text ever appears in
 * the DOM, and every console error (React reports a hydration mismatch there).
 */
export async function watchPage(page: Page): Promise<PageWatch> {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  await page.addInitScript((text: string) => {
    const w = window as unknown as { __sawLoading?: boolean };
    w.__sawLoading = false;
    const check = () => {
      if (document.body?.textContent?.includes(text)) w.__sawLoading = true;
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
    document.addEventListener("DOMContentLoaded", check);
  }, LOADING_TEXT);
  return {
    errors,
    sawLoading: () => page.evaluate(() => (window as unknown as { __sawLoading?: boolean }).__sawLoading === true),
  };
}

/** Puts `session` into the browser, starts watching the page (watchPage), and opens `path`. */
export async function openWatched(page: Page, context: BrowserContext, session: BrowserSession, path: string): Promise<PageWatch> {
  await signInContext(context, E2E.baseUrl, session);
  const watch = await watchPage(page);
  await page.goto(path);
  return watch;
}

/** The HTML the server sends for `path` to this session, which must be a 200, with its visible text. */
export async function renderedFor(page: Page, path: string, cookie: string) {
  const res = await htmlFor(page, path, cookie);
  expect(res.status, path).toBe(200);
  return { ...res, text: visibleText(res.html) };
}

/** openWatched, then waits until every island on the page has hydrated. */
export async function openHydrated(page: Page, context: BrowserContext, session: BrowserSession, path: string): Promise<PageWatch> {
  const watch = await openWatched(page, context, session, path);
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
  return watch;
}

/** The page never showed the loading screen and logged no error (no hydration mismatch). */
export async function expectNoLoadingOrErrors(watch: PageWatch): Promise<void> {
  expect(await watch.sawLoading()).toBe(false);
  expect(watch.errors).toEqual([]);
}

/** Text of the HTML without tags (what a reader of the page without JavaScript sees). */
export function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}
