// The Stripe webhook's hostile cases, run by fuzz.test.ts on their own Stripe-configured shop.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwardedFrom, startTestPocketBase, type TestPocketBase } from "../../support/pocketbase.ts";
import { clientIp, hostileString, hostileValue, junkFields, malformedBody } from "./arbitraries.ts";
import { changedTables, dbSnapshotter, type DbSnapshotter } from "./db-snapshot.ts";
import { check, fail, fuzz, runs } from "./fuzz-kit.ts";
import { refusalProblems, sendRaw, type HostileRequest } from "./http.ts";
import { leakProblems } from "./record-reads.ts";

export function stripeWebhookCases(): void {
  // The Stripe webhook on a shop with Stripe configured (no stripe-mock needed: nothing here
  // may reach Stripe): forged, stale, missing signatures and junk bodies are refused.
  describe("the Stripe webhook", () => {
    let stripeShop: TestPocketBase;
    let stripeDb: DbSnapshotter;
    beforeAll(async () => {
      stripeShop = await startTestPocketBase({
        STRIPE_SECRET_KEY: "sk_test_hostile",
        STRIPE_WEBHOOK_SECRET: "whsec_hostile",
        STRIPE_API_BASE: "http://127.0.0.1:9",
      });
      stripeDb = dbSnapshotter(stripeShop.dataDir);
    });
    afterAll(async () => {
      stripeDb?.close();
      await stripeShop?.stop();
    });

    it("has checks that can fail: a committed write shows in the snapshot, a foreign row is a leak", async () => {
      const su = await stripeShop.superuser(); // (a sign-in writes _authOrigins)
      const before = await stripeDb.take();
      await su.collection("contact_messages").create({
        name: "Self Check",
        email: "self@check.test",
        subject: "Self check",
        message: "The snapshot must see this row.",
        type: "general",
      });
      expect(changedTables(before, await stripeDb.take())).toEqual(["contact_messages"]);
      const foreign = {
        status: 200,
        text: "",
        contentType: "application/json",
        json: { items: [{ collectionName: "proxies", id: fuzz.hs.B.proxies[0], expand: {} }] },
      };
      expect(leakProblems("customer", foreign)).toEqual([`leaked proxies/${fuzz.hs.B.proxies[0]} to customer`]);
      const hidden = { ...foreign, json: { collectionName: "users", id: fuzz.hs.A.user.id, tokenKey: "x" } };
      expect(leakProblems("customer", hidden)).toEqual([`hidden field tokenKey of users/${fuzz.hs.A.user.id} shown to customer`]);
    });

    it("refuses every unsigned or forged event with a readable 400 and changes nothing", async () => {
      const now = () => Math.floor(Date.now() / 1000);
      const signature = fc.oneof(
        fc.constant(undefined),
        hostileString,
        fc.tuple(fc.integer({ min: 0, max: 2 ** 31 }), fc.stringMatching(/^[0-9a-f]{0,64}$/)).map(([t, v]) => `t=${t},v1=${v}`),
        fc.stringMatching(/^[0-9a-f]{64}$/).map((v) => `t=${now()},v1=${v}`),
        fc.constantFrom(`t=${now()}`, "v1=abc", "t=,v1=", `t=${now() - 3600},v1=${"0".repeat(64)}`, "t=1e400,v1=00"),
      );
      const event = fc.oneof(
        fc
          .record({
            type: fc.constantFrom("checkout.session.completed", "checkout.session.async_payment_succeeded", "checkout.session.expired"),
            data: fc.record({ object: junkFields }),
          })
          .map((e) => ({ json: e })),
        malformedBody.map((raw) => ({ raw })),
        hostileValue.map((json) => ({ json })),
      );
      const arb = fc.record({ signature, event, ip: clientIp }).map(({ signature: sig, event: ev, ip }) => {
        const headers: Record<string, string> = forwardedFrom(stripeShop, ip);
        if (sig !== undefined) headers["Stripe-Signature"] = sig;
        let body: string;
        if ("raw" in ev && ev.raw) {
          body = ev.raw.body;
          if (ev.raw.contentType) headers["Content-Type"] = ev.raw.contentType;
        } else {
          body = JSON.stringify((ev as { json: unknown }).json);
          headers["Content-Type"] = "application/json";
        }
        const req: HostileRequest = { method: "POST", url: "/api/v1/payments/stripe/webhook", headers, body, target: "stripe webhook" };
        return async () => {
          const before = await stripeDb.take();
          const res = await sendRaw(stripeShop.url, req);
          fuzz.sent += 1;
          const changed = changedTables(before, await stripeDb.take());
          const problems = [
            ...refusalProblems(res, { custom: true }),
            ...(changed.length ? [`changed rows in ${changed.join(", ")}`] : []),
          ];
          if (problems.length > 0) fail(req, res, problems);
        };
      });
      await check(arb, runs(30, 300));
    });
  });
}
