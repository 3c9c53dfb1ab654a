// Counting what a page sends: a double click must not buy twice.
import type { Page } from "@playwright/test";

/** Counts the page's requests whose URL holds `urlPart`, from now on: sent, and answered (finished). */
export function countRequests(page: Page, urlPart: string): { sent: () => number; answered: () => number } {
  let sent = 0;
  let answered = 0;
  page.on("request", (r) => {
    if (r.url().includes(urlPart)) sent++;
  });
  page.on("requestfinished", (r) => {
    if (r.url().includes(urlPart)) answered++;
  });
  return { sent: () => sent, answered: () => answered };
}
