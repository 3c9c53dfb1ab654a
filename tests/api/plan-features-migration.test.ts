// The 1764800650 migration (issue #28) on a shop installed before it: the starting plans
// whose features are still the ones first shipped get the texts that name their facts
// ("Sticky sessions up to {session_max_hours} hours", not "30 minutes"); a plan an admin
// has reworded keeps its words.
import { describe, expect, it } from "vitest";
import { startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";
import { migrationsBefore, useTempDirs } from "../support/upgrade-dirs.ts";
import seeded from "../../pocketbase/pb_hooks/lib/default-plans.json" with { type: "json" };

const today = (name: string) => seeded.find((p) => p.name === name)?.features ?? [];
/** The residential plan as first shipped: today's texts with the number it stated. */
const SHIPPED = today("Residential Pro").map((f) => f.replace("{session_max_hours} hours", "30 minutes"));
const REWORDED = ["Our own words", "5 countries"];

describe("the 1764800650 migration", () => {
  const tempDir = useTempDirs();

  it("gives the plans still as first shipped the texts that name their facts, and leaves reworded ones alone", async () => {
    const oldMigrations = migrationsBefore(tempDir("plans-old-migrations"), "1764800650");
    const dataDir = tempDir("plans-upgrade");
    const env = { GATEWAY_HTTP_PORT: "", GATEWAY_SOCKS_PORT: "", GATEWAY_HTTPS_PORT: "" };
    const byName = async (tpb: TestPocketBase) =>
      Object.fromEntries((await (await tpb.superuser()).collection("pricing_plans").getFullList()).map((p) => [p["name"], p]));

    let tpb = await startTestPocketBase(env, { dataDir, migrationsDir: oldMigrations });
    try {
      const su = await tpb.superuser();
      const plans = await byName(tpb);
      // As an installation from before had them (the seed file holds today's texts).
      await su.collection("pricing_plans").update(plans["Residential Pro"]!.id, { features: SHIPPED });
      await su.collection("pricing_plans").update(plans["Datacenter Starter"]!.id, { features: REWORDED });
    } finally {
      await tpb.stop();
    }

    tpb = await startTestPocketBase(env, { dataDir });
    try {
      const after = await byName(tpb);
      expect(after["Residential Pro"]!["features"]).toEqual(today("Residential Pro"));
      expect(after["Residential Pro"]!["features"]).toContain("Sticky sessions up to {session_max_hours} hours");
      expect(after["Datacenter Starter"]!["features"]).toEqual(REWORDED);
      expect(after["SOCKS5 Private"]!["features"]).toEqual(today("SOCKS5 Private"));
    } finally {
      await tpb.stop();
    }
  });
});
