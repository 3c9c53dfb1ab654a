// The dashboard overview's Active Proxies list writes each proxy's host:port as every other
// place does (src/lib/endpoint.ts): an IPv6 host in brackets, as proxy tools take it. A
// gateway whose public host is an IPv6 address (the gateway_public_host setting, issue #16)
// makes every proxy's host one.
import { expect, test } from "@playwright/test";
import { addStock, createCustomer, signInAs } from "./support/customers.ts";
import { setE2eProxyColumns, superuserClient } from "./support/pocketbase.ts";

test.describe.configure({ timeout: 60_000 });

test("an IPv6 host is written in brackets in the overview's Active Proxies", async ({ page }) => {
  const user = await createCustomer();
  const su = await superuserClient();
  const [id = ""] = await addStock({ type: "DATACENTER", country: "DE", count: 1 });
  const host = `2001:db8::${Math.floor(Math.random() * 0xffff).toString(16)}`;
  const proxy = await su.collection("proxies").update(id, { host });
  setE2eProxyColumns([id], { status: "ASSIGNED", assigned_to_user_id: user.id });

  await signInAs(page, user, "/dashboard");
  const list = page.getByRole("region", { name: "Active Proxies", exact: true });
  await expect(list.getByText(`[${host}]:${proxy["port"]}`, { exact: true })).toBeVisible();
  await expect(list.getByText(`${host}:${proxy["port"]}`, { exact: true })).toHaveCount(0);
  // Each proxy is titled by its place and username (issue #28), not the address they share.
  await expect(list.getByText(`Germany · ${proxy["username"]}`, { exact: true })).toBeVisible();
});
