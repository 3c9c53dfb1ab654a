// Proxy Management (/console/proxies, admin spec "Proxy Management") end to end in Chromium
// against the real backend: generate 1,000 proxies and see the stats grow, import a file of
// upstream lines with bad lines and see them reported, each proxy on the gateway with its
// exit, edit one (the upstream's password never shown; its usage and limits, issue #16),
// delete one after the confirmation,
// and the page's accessibility at 360 px.
import { expect, test, type Page } from "@playwright/test";
import type { AdminProxy, AdminProxyDetail } from "@/features/console-proxies/api";
import type PocketBase from "pocketbase";
import { adminClient, createAdmin, signInAs } from "./support/customers.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { tag } from "./support/unique.ts";

async function findProxies(pb: PocketBase, query: Record<string, string>): Promise<{ items: AdminProxy[]; totalItems: number }> {
  return pb.send("/api/admin/proxies", { method: "GET", query: { perPage: 100, ...query } });
}

/** The number a stat card shows, once loaded. */
async function stat(page: Page, name: "total" | "available" | "assigned" | "expired"): Promise<number> {
  const value = page.getByTestId(`stat-${name}`);
  await expect(value).toBeVisible();
  return Number((await value.innerText()).replace(/,/g, ""));
}

async function chooseFrom(page: Page, label: string, search: string, option: string): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(search);
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(input).toHaveValue(option);
}

test("generates 1,000 proxies from the Generate tab and the stats grow", async ({ page }) => {
  test.setTimeout(60_000);
  const admin = await createAdmin();
  const pb = await adminClient();
  await signInAs(page, admin, "/console/proxies");
  await expect(page.getByRole("heading", { name: "Proxy Management", level: 1 })).toBeVisible();
  const totalBefore = await stat(page, "total");
  const availableBefore = await stat(page, "available");
  const inPlaceBefore = (await findProxies(pb, { country: "JP", search: "Sakai" })).totalItems;

  await page.getByRole("tab", { name: "Generate" }).click();
  await expect(page.getByText("immediately available for assignment")).toBeVisible();
  await expect(page.getByTestId("generate-exit")).toContainText("leave directly from the gateway machine");
  const state = page.getByLabel("State (optional)", { exact: true });
  const city = page.getByLabel("City (optional)", { exact: true });
  await expect(state).toBeDisabled();
  await expect(state).toHaveAttribute("placeholder", "Select a country first");
  await expect(city).toBeDisabled();

  // The quantity is checked before anything is sent.
  await page.getByLabel("Quantity").fill("1001");
  await page.getByRole("button", { name: "Generate Proxies" }).click();
  await expect(page.getByText("Maximum 1000 proxies per batch")).toBeVisible();
  await expect(page.getByText("Country is required")).toBeVisible();

  // Choosing a country clears state and city; choosing a state clears city.
  await chooseFrom(page, "Country", "braz", "Brazil (BR)");
  await chooseFrom(page, "State (optional)", "bahia", "Bahia");
  await chooseFrom(page, "City (optional)", "salv", "Salvador");
  await chooseFrom(page, "State (optional)", "minas", "Minas Gerais");
  await expect(city).toHaveValue("");
  await chooseFrom(page, "Country", "jap", "Japan (JP)");
  await expect(state).toHaveValue("");
  await expect(city).toBeDisabled();
  await expect(city).toHaveAttribute("placeholder", "Select a state first");
  await chooseFrom(page, "State (optional)", "osa", "Osaka");
  await chooseFrom(page, "City (optional)", "sak", "Sakai");

  await page.getByLabel("Proxy Type").selectOption("DATACENTER");
  await page.getByLabel("Quantity").fill("1000");
  await page.getByRole("button", { name: "Generate Proxies" }).click();
  await expect(page.getByTestId("proxy-banner")).toHaveText("Successfully generated 1000 proxies", { timeout: 20_000 });
  await expect.poll(() => stat(page, "total")).toBeGreaterThanOrEqual(totalBefore + 1000);
  await expect.poll(() => stat(page, "available")).toBeGreaterThanOrEqual(availableBefore + 1000);

  const made = await findProxies(pb, { country: "JP", search: "Sakai", type: "DATACENTER" });
  expect(made.totalItems).toBe(inPlaceBefore + 1000);
  for (const p of made.items) {
    expect(p).toMatchObject({ status: "AVAILABLE", state: "Osaka", city: "Sakai", country: "JP", exit: "direct", upstream_host: "" });
  }

  // The new country shows in the inventory's country filter, with its count.
  await page.getByRole("tab", { name: "Inventory" }).click();
  await expect(page.getByLabel("Country", { exact: true }).locator("option", { hasText: "Japan (JP)" })).toHaveCount(1);
});

test("imports upstream lines, reports the bad ones, shows each proxy's exit on the gateway, edits one and deletes one", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const admin = await createAdmin();
  const pb = await adminClient();
  const t = tag();
  await signInAs(page, admin, "/console/proxies");
  await page.getByRole("tab", { name: "Import" }).click();
  await expect(page.getByTestId("import-explainer")).toContainText("upstream proxy");
  await expect(page.getByTestId("import-explainer")).toContainText("new shop credentials");
  const importButton = page.getByRole("button", { name: "Import Proxies" });
  await expect(importButton).toBeDisabled();

  // Upstream proxies: their passwords are the seller's and must never show again.
  const file = [
    `${t}-a.e2e.test:8080:alpha:UpSecret1`,
    `${t}-a.e2e.test:8081:beta`,
    `${t}-a.e2e.test:port:gamma:UpSecret3`,
    `${t}-b.e2e.test:9090:delta:UpSecret4`,
    `${t}-a.e2e.test:8080:alpha:Again`,
  ].join("\n");
  await page
    .getByLabel("Or load a file (.txt, .csv)")
    .setInputFiles({ name: "proxies.txt", mimeType: "text/plain", buffer: Buffer.from(file) });
  await expect(page.getByLabel("Proxy list")).toHaveValue(file);
  await expect(page.getByText("5 lines")).toBeVisible();
  await page.getByLabel("Proxy Type (optional)").selectOption("HTTP");
  await importButton.click();

  await expect(page.getByTestId("proxy-banner")).toHaveText("Successfully imported 2 proxies");
  const report = page.getByTestId("import-report");
  await expect(report.getByText("3 lines skipped")).toBeVisible();
  await expect(report.getByTestId("skipped-line")).toHaveText([
    /Line 2: Malformed: expected host:port:username:password/,
    /Line 3: Bad port: must be a whole number from 1 to 65535/,
    /Line 5: Duplicate of line 1 in this file/,
  ]);
  await expect(page.getByLabel("Proxy list")).toHaveValue("");
  await expect(importButton).toBeDisabled();

  // Each imported proxy is sold on the gateway's endpoint under its own shop username.
  const imported = (await findProxies(pb, { search: t })).items;
  expect(imported).toHaveLength(2);
  const alpha = imported.find((p) => p.upstream_host === `${t}-a.e2e.test`)!;
  expect(alpha).toMatchObject({ exit: "upstream", upstream_port: 8080, upstream_username: "alpha", upstream_has_password: true });
  expect(alpha.username).not.toBe("alpha");
  expect(alpha.host).not.toContain(t);
  const gateway = `${alpha.host}:${alpha.port}`;

  // Inventory: the imported proxies, found by their upstream host; the exit and the gateway's host:port.
  await page.getByRole("tab", { name: "Inventory" }).click();
  await page.getByLabel("Search").fill(t);
  await expect(page.getByTestId("proxy-count")).toHaveText("2 proxies");
  const rows = page.getByTestId("proxy-row");
  await expect(rows).toHaveCount(2);
  const alphaRow = rows.filter({ hasText: alpha.username });
  await expect(alphaRow).toContainText(gateway);
  // The Proxy column may wrap a long host, never inside the port (issue #28): ":port" is one line box.
  const portLines = await alphaRow
    .getByTestId("proxy-endpoint")
    .evaluate((el) => (el.lastElementChild ? el.lastElementChild.getClientRects().length : 0));
  expect(portLines).toBe(1);
  await expect(alphaRow.getByTestId("proxy-exit")).toHaveText(`Upstream ${t}-a.e2e.test:8080`);
  await expect(alphaRow).toContainText("Unknown");
  await expect(alphaRow).toContainText("Available");

  // Edit: titled with the gateway's host:port (read-only); the customer's password in clear,
  // the upstream's never (write-only: "Unchanged").
  await page.getByRole("button", { name: `Edit proxy ${alpha.username}` }).click();
  const dialog = page.getByRole("dialog", { name: gateway });
  const detail = await pb.send<AdminProxyDetail>(`/api/admin/proxies/${alpha.id}`, { method: "GET" });
  await expect(dialog.getByLabel("Password", { exact: true })).toHaveValue(detail.password);
  expect(detail.password).not.toBe("UpSecret1");
  await expect(dialog.getByLabel("Host/IP Address")).toHaveValue(alpha.host);
  await expect(dialog.getByLabel("Host/IP Address")).toHaveAttribute("readonly", "");
  await expect(dialog.getByLabel("Traffic leaves")).toHaveValue("upstream");
  await expect(dialog.getByLabel("Upstream host")).toHaveValue(`${t}-a.e2e.test`);
  const upstreamPassword = dialog.getByLabel("Upstream password");
  await expect(upstreamPassword).toHaveValue("");
  await expect(upstreamPassword).toHaveAttribute("placeholder", "Unchanged");
  expect(await page.content()).not.toContain("UpSecret1");

  // Its usage (nothing yet) and limits (none yet).
  await expect(dialog.getByTestId("proxy-usage")).toContainText("This month0 B");
  await expect(dialog.getByTestId("proxy-usage")).toContainText("Last 24 hours0 B · 0 connections");
  const quota = dialog.getByLabel("Bandwidth quota a month (0 = unlimited)");
  const cap = dialog.getByLabel("Max concurrent connections (0 = unlimited)");
  await expect(quota).toHaveValue("0");
  await expect(cap).toHaveValue("0");

  await dialog.getByLabel("Upstream port").fill("0");
  await dialog.getByRole("button", { name: "Update Proxy" }).click();
  await expect(dialog.getByText("Upstream port must be a whole number from 1 to 65535")).toBeVisible();
  await dialog.getByLabel("Upstream port").fill("8443");
  await quota.fill("1.5");
  await dialog.getByRole("button", { name: "Update Proxy" }).click();
  await expect(dialog.getByText("Bandwidth quota must be a whole number of GB from 0 to 1,000,000 (0 = unlimited)")).toBeVisible();
  await quota.fill("25");
  await cap.fill("10");
  // A new customer password is as hard to guess as a generated one (#26 finding 7).
  await dialog.getByLabel("Password", { exact: true }).fill("Rotated#2");
  await dialog.getByRole("button", { name: "Update Proxy" }).click();
  await expect(dialog.getByText(/^Password must be at least 12 characters/)).toBeVisible();
  await dialog.getByLabel("Password", { exact: true }).fill("Rotated#2-Strong");
  await dialog.getByLabel("Status").selectOption("MAINTENANCE");
  await dialog.getByRole("button", { name: "Update Proxy" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("proxy-banner")).toHaveText(`Proxy ${alpha.username} (${gateway}) updated successfully`);
  await expect(alphaRow.getByTestId("proxy-exit")).toHaveText(`Upstream ${t}-a.e2e.test:8443`);
  await expect(alphaRow).toContainText("Maintenance");
  const edited = await pb.send<AdminProxyDetail>(`/api/admin/proxies/${alpha.id}`, { method: "GET" });
  expect(edited).toMatchObject({ host: alpha.host, port: alpha.port, upstream_port: 8443, upstream_has_password: true });
  expect(edited).toMatchObject({
    password: "Rotated#2-Strong",
    status: "MAINTENANCE",
    bandwidth_quota_bytes: 25 * 2 ** 30,
    max_connections: 10,
  });
  const audit = await (
    await superuserClient()
  )
    .collection("audit_logs")
    .getFirstListItem(`action = "proxies.update" && target_id = "${alpha.id}"`, { sort: "-created" });
  expect(audit["details"]).toMatchObject({
    changes: { bandwidth_quota_gb: { from: 0, to: 25 }, max_connections: { from: 0, to: 10 } },
  });

  // Delete: asks first; Cancel keeps the proxy, Delete removes it.
  const delta = imported.find((p) => p.upstream_host === `${t}-b.e2e.test`)!;
  await page.getByRole("button", { name: `Delete proxy ${delta.username}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete proxy" });
  await expect(confirm).toContainText("Are you sure you want to delete this proxy?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(rows).toHaveCount(2);
  await page.getByRole("button", { name: `Delete proxy ${delta.username}` }).click();
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("proxy-banner")).toHaveText(`Proxy ${delta.username} (${gateway}) deleted successfully`);
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId("proxy-count")).toHaveText("1 proxy");
  expect((await findProxies(pb, { search: `${t}-b.e2e.test` })).totalItems).toBe(0);
});

test("has no accessibility violations and fits 360 px on every tab", async ({ page }) => {
  // Four axe sweeps on a shared 2-core machine.
  test.setTimeout(60_000);
  const admin = await createAdmin();
  const pb = await adminClient();
  const t = tag();
  await pb.send("/api/admin/proxies/import", {
    method: "POST",
    body: { text: `${t}-a11y.e2e.test:3128:a11yuser-with-a-long-name:Secret1`, country: "AU" },
  });
  const [proxy] = (await findProxies(pb, { search: t })).items;
  // The gateway marks an upstream it could not reach: the card says so, its error written out (no hover on a phone).
  await (
    await superuserClient()
  )
    .collection("proxies")
    .update(proxy!.id, { upstream_failed_at: "2026-01-02 03:04:05.000Z", upstream_error: "dial tcp: connection refused by upstream" });
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, admin, "/console/proxies");
  await page.getByLabel("Search").fill(t);
  // At 360 px the inventory is a list of cards with the actions in reach.
  await expect(page.getByTestId("proxy-card")).toHaveCount(1);
  await expect(page.getByTestId("proxy-card")).toBeVisible();
  await expect(page.getByTestId("proxy-row")).toBeHidden();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);

  const exit = page.getByTestId("proxy-card").getByTestId("proxy-exit");
  await expect(exit).toContainText(`Upstream ${t}-a11y.e2e.test:3128`);
  await expect(exit.getByTestId("upstream-failed")).toContainText("Upstream failing since");
  await expect(exit.getByTestId("upstream-failed")).toContainText("dial tcp: connection refused by upstream");
  await expect(exit.getByTestId("upstream-failed")).toHaveAttribute("title", "dial tcp: connection refused by upstream");
  await page.getByRole("button", { name: `Edit proxy ${proxy!.username}` }).click();
  await expect(page.getByRole("dialog").getByLabel("Upstream password")).toHaveAttribute("placeholder", "Unchanged");
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Cancel" }).click();

  for (const tab of ["Generate", "Import"]) {
    await page.getByRole("tab", { name: tab }).click();
    await expect(page.getByRole("button", { name: `${tab} Proxies` })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
  }
});
