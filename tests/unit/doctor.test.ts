// npm run doctor / the first start's checklist (server/doctor.ts): each item ok or missing,
// with how to set it; payments decided as the start banner does (server/start-checks.ts).
import { describe, expect, it } from "vitest";
import { doctorReport, formatDoctor, type DoctorItem } from "../../server/doctor.ts";

const PUBLIC = { host: "0.0.0.0", dataDir: "/srv/shop/pb_data", appUrl: "https://shop.example.com" };
const byName = (items: DoctorItem[]) => Object.fromEntries(items.map((i) => [i.name, i]));

describe("doctorReport", () => {
  it("a bare public host: everything but the key is missing, each saying how to set it", async () => {
    const items = byName(
      await doctorReport({}, { ...PUBLIC, appUrl: "http://localhost:4321", credentialsKeySource: undefined, adminExists: false }),
    );
    expect(Object.keys(items)).toEqual(["APP_URL", "SMTP", "Payments", "Credentials key", "Litestream", "Administrator"]);
    expect(Object.values(items).every((i) => !i.ok)).toBe(true);
    expect(items["APP_URL"]?.detail).toContain("Set APP_URL=https://shop.example.com");
    expect(items["SMTP"]?.detail).toContain("Set SMTP_HOST");
    expect(items["Payments"]?.detail).toMatch(/^none: .*Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/);
    expect(items["Credentials key"]?.detail).toContain("set SHOP_CREDENTIALS_KEY");
    expect(items["Litestream"]?.detail).toContain("set LITESTREAM_REPLICA");
    expect(items["Administrator"]?.detail).toContain("`proxy-shop admin create <email>`");
  });

  it("a configured shop is all ok, and the key's location says to back it up apart", async () => {
    const env = {
      APP_URL: "https://shop.example.com",
      SMTP_HOST: "smtp.example.com",
      SMTP_PORT: "587",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      LITESTREAM_REPLICA: "s3://backups/shop",
    };
    const items = await doctorReport(env, { ...PUBLIC, credentialsKeySource: "SHOP_CREDENTIALS_KEY", adminExists: true });
    expect(items.filter((i) => !i.ok)).toEqual([]);
    const named = byName(items);
    expect(named["SMTP"]?.detail).toBe("mails go through smtp.example.com:587");
    expect(named["Litestream"]?.detail).toBe("replicates to s3://backups/shop");
    expect(named["Credentials key"]?.detail).toMatch(/^from SHOP_CREDENTIALS_KEY\. Back it up apart from the data dir/);
  });

  it("the test provider, half a Stripe setup and a bad replica are missing; a loopback host needs no APP_URL", async () => {
    const test = byName(await doctorReport({}, { ...PUBLIC, host: "127.0.0.1", credentialsKeySource: "k", adminExists: true }));
    expect(test["APP_URL"]?.ok).toBe(true);
    expect(test["Payments"]).toMatchObject({ ok: false, detail: expect.stringContaining("the labelled TEST provider") });
    const half = byName(await doctorReport({ STRIPE_SECRET_KEY: "sk" }, { ...PUBLIC, credentialsKeySource: "k", adminExists: true }));
    expect(half["Payments"]?.detail).toContain("STRIPE_WEBHOOK_SECRET is missing");
    const bad = byName(
      await doctorReport({ LITESTREAM_REPLICA: "relative/dir" }, { ...PUBLIC, credentialsKeySource: "k", adminExists: true }),
    );
    expect(bad["Litestream"]).toMatchObject({ ok: false, detail: expect.stringContaining("is not an absolute path") });
  });

  it("asks a data dir with no database yet: no administrator", async () => {
    const items = byName(await doctorReport({}, { ...PUBLIC, dataDir: "/nonexistent/pb_data", credentialsKeySource: undefined }));
    expect(items["Administrator"]?.ok).toBe(false);
  });
});

describe("formatDoctor", () => {
  it("prints one line per item, ok or missing, names aligned", () => {
    const text = formatDoctor([
      { name: "SMTP", ok: true, detail: "mails go through smtp.example.com" },
      { name: "Administrator", ok: false, detail: "none yet" },
    ]);
    expect(text.split("\n")).toEqual(["  ok       SMTP           mails go through smtp.example.com", "  missing  Administrator  none yet"]);
  });
});
