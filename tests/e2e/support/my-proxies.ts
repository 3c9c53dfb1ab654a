// What the My Proxies specs share: proxies bought through the real purchase route, the
// stored proxy, the server's unit prices, and the page's cards, count and downloads.
import { readFile } from "node:fs/promises";
import { expect, type Download, type Locator, type Page } from "@playwright/test";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { proxyTitle } from "@/lib/proxy-title";
import type { TestUser } from "../../support/pocketbase.ts";
import { addStock, userClient } from "./customers.ts";
import { superuserClient } from "./pocketbase.ts";

export const DAY_MS = 86_400_000;
/** A PocketBase date ("2026-01-02 03:04:05.678Z") in milliseconds. */
export const ms = (date: string): number => Date.parse(date.replace(" ", "T"));

/** Puts proxies into stock at a place of their own and buys them all through the real route. */
export async function buyProxies(
  user: TestUser,
  place: { type: string; country: string; state: string; city?: string; count: number },
): Promise<ProxyRecord[]> {
  await addStock(place);
  const pb = await userClient(user);
  const res = await pb.send("/api/v1/proxies/purchase", {
    method: "POST",
    headers: { "Idempotency-Key": crypto.randomUUID() },
    body: { type: place.type, country: place.country, state: place.state, city: place.city ?? "", quantity: place.count },
  });
  expect(res.proxies).toHaveLength(place.count);
  return res.proxies as ProxyRecord[];
}

export async function proxyInDb(id: string): Promise<ProxyRecord> {
  const su = await superuserClient();
  return (await su.collection("proxies").getOne(id)) as unknown as ProxyRecord;
}

export async function unitPrices(user: TestUser): Promise<Record<string, number>> {
  return (await userClient(user)).send("/api/v1/proxies/prices", {});
}

export const endpointOf = (p: Pick<ProxyRecord, "host" | "port">): string => `${p.host}:${p.port}`;
/** A proxy's card, by its title: place and username (issue #28; every card shares the gateway's host:port). */
export const cardOf = (page: Page, p: Pick<ProxyRecord, "country" | "city" | "username">): Locator =>
  page.getByRole("article", { name: proxyTitle(p), exact: true });
export const cards = (page: Page): Locator => page.getByTestId("proxy-card");
export const countText = (page: Page): Locator => page.getByTestId("proxy-count");

export async function downloadFrom(page: Page, button: string): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return { download, text: await readFile(await download.path(), "utf8") };
}
