// A plan's monthly quota at the gateway (issue #16): once the month's usage rows reach the
// plan's quota, the gateway refuses new connections with the quota's text.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";
import { addStock, customer, purchase, setProxyColumns, shopClients } from "../support/shop.ts";
import { insertUsageRows } from "../support/usage-rows.ts";
import { dbDate, GB, HOUR, monthStart, nextMonth, type Usage } from "./cases/usage-kit.ts";

function curl(args: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    execFile("curl", ["-sS", "--max-time", "10", "-w", "\n%{http_code}", ...args], (_error, stdout) => {
      const lines = stdout.split("\n");
      resolve({ status: Number(lines.pop()), body: lines.join("\n") });
    });
  });
}

describe("a plan's monthly quota at the gateway", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-usage-"));
  let tpb: TestPocketBase | undefined;

  afterAll(async () => {
    await tpb?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const gatewayEnv = async () => ({
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_HTTP_PORT: String(await freePort()),
    GATEWAY_SOCKS_PORT: "",
    GATEWAY_FLUSH_SECONDS: "1",
  });

  it("refuses new connections with the quota's text once the month's usage rows reach the plan's 1 GB", async () => {
    let env = await gatewayEnv();
    tpb = await startTestPocketBase(env, { dataDir });
    const shop = await shopClients(tpb);
    const plan = await shop.admin.collection("pricing_plans").create({
      name: "Metered HTTP",
      type: "HTTP",
      price_cents: 100,
      features: ["1 GB a month"],
      active: true,
      bandwidth_quota_gb: 1,
    });
    expect(plan["bandwidth_quota_gb"]).toBe(1);
    await addStock(shop, { type: "HTTP", country: "US", count: 1 });
    const buyer = await customer(shop, 1_000);
    const bought = (await purchase(buyer.pb, { type: "HTTP", country: "US", quantity: 1 })).proxies[0]!;
    const proxyUrl = (port: string) =>
      `http://${encodeURIComponent(bought.username)}:${encodeURIComponent(String(bought["password"]))}@127.0.0.1:${port}`;
    const target = `${tpb.url}/api/ip`;
    expect((await curl(["-x", proxyUrl(env.GATEWAY_HTTP_PORT), target])).status).toBe(200);

    // A month's traffic of exactly the quota, in two hours of this month (bought before it began).
    const start = monthStart();
    setProxyColumns(tpb, [bought.id], { term_started_at: dbDate(start - HOUR) });
    const lastHour = Math.max(start, Date.now() - HOUR);
    const halves = lastHour === start ? [GB] : [GB / 2, GB / 2];
    insertUsageRows(
      tpb,
      halves.map((bytes, i) => ({ proxy_id: bought.id, user_id: buyer.id, hour: i === 0 ? start : lastHour, bytes_down: bytes })),
    );
    const month = await buyer.pb.send<Usage>(`/api/v1/proxies/${bought.id}/usage`, {});
    expect(month.month).toMatchObject({ quota_bytes: GB, quota_reached: true });

    // The gateway reads the month's usage when it starts (and every minute): a restart makes it see the rows now.
    await tpb.stop();
    env = await gatewayEnv();
    tpb = await startTestPocketBase(env, { dataDir });
    const renews = new Date(nextMonth()).toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" });
    let refused = { status: 0, body: "" };
    for (let i = 0; i < 50 && refused.status !== 429; i++) {
      refused = await curl(["-x", proxyUrl(env.GATEWAY_HTTP_PORT), target]);
      if (refused.status !== 429) await new Promise((r) => setTimeout(r, 100));
    }
    expect(refused.status).toBe(429);
    expect(refused.body).toContain(`This proxy's monthly bandwidth quota (1 GB) is used up; it renews on ${renews} (UTC).`);
  }, 60_000);
});
