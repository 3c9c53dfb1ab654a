// Property-based hostile input (issue #8): every custom route (read from pb_hooks' route
// tables, so a new route without a spec here fails the first test) and every
// collection a client can write (read from the collections' rules) receives malformed,
// oversized, wrong-typed and injection-shaped bodies, ids and query strings from fast-check,
// as anonymous, customer, unverified customer and admin callers.
//
// Every generated write carries at least one defect that must make it fail (a caller
// without the right, an id that is not theirs or does not exist, a missing or malformed
// Idempotency-Key, a body that is not a JSON object, or a field value the field refuses
// whatever else is sent), so the properties are: a 4xx with a readable JSON message, never
// a 5xx, and not one row of the database changed (every table hashed before and after
// every request). Reads may answer, but never a 5xx, never a row the caller may not see,
// never a hidden field. Afterwards PocketBase's own request log must hold no hook error
// (TypeError, ReferenceError, GoError ...) behind any 4xx.
//
// `npm test` runs the short form (a few hundred requests); `npm run test:hostile` the full
// one (HOSTILE_PROFILE=full: more than 5,000). A failure prints fast-check's seed and path;
// replay it with HOSTILE_SEED=<seed> HOSTILE_PATH=<path>.
import fc from "fast-check";
import type { CollectionModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedTables, dbSnapshotter, type DbSnapshotter, type Snapshot } from "./support/db-snapshot.ts";
import { hostileShop, startStripeShop } from "./support/fixtures.ts";
import {
  build,
  check,
  expectCalmRead,
  expectRefused,
  FULL,
  fuzz,
  REPLAY_PATH,
  runs,
  SEED,
  sendAndCompare,
  type Draft,
  type Op,
} from "./support/fuzz-kit.ts";
import { describeRequest, errorBodyProblems } from "./support/http.ts";
import { builtinRequest, computeVisibility, leakProblems, recordRead } from "./support/record-reads.ts";
import { RECORD_WRITES, recordWrite } from "./support/record-writes.ts";
import { declaredRoutes } from "../support/hook-routes.ts";
import { routeRequest } from "./support/route-requests.ts";
import { ROUTES } from "./support/route-specs.ts";
import { stripeWebhookCases } from "./support/stripe-webhook-cases.ts";

let shopProcess: Awaited<ReturnType<typeof startStripeShop>>;
let baseline: Snapshot;

// ---- The suite ----------------------------------------------------------------------

beforeAll(async () => {
  shopProcess = await startStripeShop();
  fuzz.tpb = shopProcess.tpb;
  fuzz.hs = await hostileShop(fuzz.tpb);
  fuzz.tokens = {
    anon: "",
    customer: fuzz.hs.A.user.pb.authStore.token,
    unverified: fuzz.hs.unverified.pb.authStore.token,
    admin: fuzz.hs.admin.authStore.token,
    superuser: fuzz.hs.su.authStore.token,
  };
  fuzz.collections = (await fuzz.hs.su.collections.getFullList())
    .filter((c: CollectionModel) => !c.system && c.type !== "view")
    .map((c: CollectionModel) => ({
      name: c.name,
      rules: { create: c.createRule ?? null, update: c.updateRule ?? null, delete: c.deleteRule ?? null },
    }));
  await computeVisibility();
  fuzz.db = dbSnapshotter(fuzz.tpb.dataDir);
  baseline = await fuzz.db.take();
  console.info(`hostile fuzz: ${FULL ? "full" : "short"} profile, seed ${SEED}${REPLAY_PATH ? `, path ${REPLAY_PATH}` : ""}`);
}, 180_000);

afterAll(async () => {
  (fuzz.db as DbSnapshotter | undefined)?.close();
  await shopProcess?.stop();
});

describe("custom routes", () => {
  it("has a spec for every route in pb_hooks", () => {
    expect(declaredRoutes()).toEqual(Object.keys(ROUTES).sort());
  });

  it("refuse every invalid write with a readable 4xx and change no row", async () => {
    const writes = Object.entries(ROUTES).filter(([, spec]) => !spec.read && spec.who !== "stripe");
    const arb = fc.oneof(...writes.map(([template, spec]) => routeRequest(template, spec))).map((d) => {
      const req = build(d);
      return () => expectRefused(req, true);
    });
    await check(arb, runs(160, 3000));
  });

  it("answer out-of-range pages and numbers on every paged list without a 5xx or a vague message", async () => {
    const paged = Object.entries(ROUTES).filter(
      ([template, spec]) => spec.read && spec.query && "page" in spec.query() && !template.includes("{id}"),
    );
    expect(paged.length).toBeGreaterThan(3);
    for (const [template] of paged) {
      for (const value of ["1e400", "-1e400", "NaN", "99999999999999999999", "-5", "1.5", "0x10", ""]) {
        for (const key of ["page", "perPage"]) {
          const req = build({
            target: template,
            method: "GET",
            path: template.split(" ")[1]!,
            query: { [key]: value },
            caller: "admin",
            ip: "192.0.2.10",
          });
          await expectCalmRead(req, true);
        }
      }
    }
  });

  it("count characters the way the database does (emoji are one character, not two)", async () => {
    const cases: Draft[] = [
      {
        target: "POST /api/shop/signup",
        method: "POST",
        path: "/api/shop/signup",
        caller: "anon",
        ip: "192.0.2.20",
        json: { first_name: " 🙂 ", last_name: "Fuzz", email: "emoji-name@hostile.test", country: "Spain" },
      },
      {
        target: "POST /api/shop/signup",
        method: "POST",
        path: "/api/shop/signup",
        caller: "anon",
        ip: "192.0.2.21",
        json: { first_name: "Fuzz", last_name: "𝒜", email: "emoji-last@hostile.test", country: "Spain" },
      },
      {
        target: "POST /api/v1/support/tickets",
        method: "POST",
        path: "/api/v1/support/tickets",
        caller: "customer",
        ip: "192.0.2.22",
        json: { subject: "🙂🙂🙂", message: "A message long enough to pass." },
      },
    ];
    for (const d of cases) await expectRefused(build(d), true);
  });

  it("answer hostile queries and ids on reads without a 5xx or a change", async () => {
    const reads = Object.entries(ROUTES).filter(([, spec]) => spec.read);
    const arb = fc.oneof(
      ...reads.map(([template, spec]) =>
        routeRequest(template, spec).map((d) => {
          const req = build(d);
          return () => expectCalmRead(req, true, undefined, spec.plainText);
        }),
      ),
    );
    await check(arb, runs(60, 800));
  });
});

describe("fuzz.collections through the records API", () => {
  it("has a spec for every operation a rule opens to clients", () => {
    const open = fuzz.collections.flatMap((c) =>
      (["create", "update", "delete"] as Op[]).filter((op) => c.rules[op] !== null).map((op) => `${c.name} ${op}`),
    );
    expect(open.sort()).toEqual(Object.keys(RECORD_WRITES).sort());
  });

  it("refuse every invalid create, update and delete, on every collection, and change no row", async () => {
    const ops = fuzz.collections.flatMap((c) => (["create", "update", "delete"] as Op[]).map((op) => recordWrite(c.name, op)));
    const arb = fc.oneof(...ops).map((d) => {
      const req = build(d);
      return () => expectRefused(req, false);
    });
    await check(arb, runs(120, 1200));
  });

  it("answer hostile filters, sorts, expands, fields and pages without a 5xx, a leak or a change", async () => {
    const arb = recordRead().map((d) => {
      const req = build(d);
      return () => expectCalmRead(req, false, (res) => leakProblems(d.caller, res));
    });
    await check(arb, runs(80, 1000));
  });

  it("refuse hostile sign-ins, tokens, batches, realtime and file requests without a 5xx or a change", async () => {
    const arb = builtinRequest().map((d) => {
      const req = build(d);
      return () => (d.method === "GET" ? expectCalmRead(req, false) : expectRefused(req, false));
    });
    await check(arb, runs(40, 400));
  });
});

describe("oversized requests", () => {
  it("refuse bodies over the size limits with 413 and a message, on our routes and the records API", async () => {
    const big = "x".repeat(33 * 1024 * 1024);
    const all: Draft[] = [
      {
        target: "support ticket",
        method: "POST",
        path: "/api/v1/support/tickets",
        caller: "customer",
        ip: "192.0.2.200",
        json: { subject: big },
      },
      {
        target: "contact create",
        method: "POST",
        path: "/api/collections/contact_messages/records",
        caller: "anon",
        ip: "192.0.2.201",
        json: { message: big },
      },
      { target: "signup", method: "POST", path: "/api/shop/signup", caller: "anon", ip: "192.0.2.202", json: { email: big } },
    ];
    // The short form sends one (33 MB each is slow on a shared machine).
    const targets = FULL ? all : all.slice(0, 1);
    for (const d of targets) {
      const req = build(d);
      const res = await sendAndCompare(req);
      expect(res.status, describeRequest(req)).toBe(413);
      expect(errorBodyProblems(res, { custom: false }), describeRequest(req)).toEqual([]);
    }
  });
});

stripeWebhookCases();

describe("afterwards", () => {
  it("left every table exactly as it was", async () => {
    expect(changedTables(baseline, await fuzz.db.take())).toEqual([]);
    console.info(`hostile fuzz: ${fuzz.sent} requests sent`);
    if (FULL) expect(fuzz.sent).toBeGreaterThanOrEqual(5000);
  });

  it("logged no hook error (TypeError, ReferenceError, GoError ...) behind any refusal", async () => {
    await new Promise((r) => setTimeout(r, 3500)); // PocketBase writes request logs in batches
    const hookError = /TypeError|ReferenceError|SyntaxError|RangeError|GoError|is not a function|Cannot read propert|of undefined|pb_hooks/;
    const offenders: string[] = [];
    for (let page = 1; ; page++) {
      const logs = await fuzz.hs.su.logs.getList(page, 500, { filter: "data.status >= 400", sort: "created" });
      for (const log of logs.items) {
        const details = JSON.stringify(log.data["details"] ?? "") + JSON.stringify(log.data["error"] ?? "");
        if (hookError.test(details))
          offenders.push(
            `${log.data["method"]} ${String(log.data["url"]).slice(0, 200)} -> ${log.data["status"]}: ${details.slice(0, 300)}`,
          );
      }
      if (page >= logs.totalPages) break;
    }
    expect(offenders).toEqual([]);
  });
});
