// The crash test (issue #8): the bank test's load runs while PocketBase is killed with
// SIGKILL at a random moment, again and again (25 times in full, 3 in the short form), and
// started again on the same data dir each time. Payments go through Stripe Checkout
// (stripe-mock) and signed webhooks, so a kill can land between a checkout and its credit.
//
// Right after each kill, on the files the dead process left (the WAL included):
// - PRAGMA integrity_check is ok and the money invariants hold (support/invariants.ts), so
//   nothing half-done survived (an order without its ledger row or proxies, proxies
//   assigned without an order, a payment paid without its credit ...);
// - every purchase, renewal, payment, credit, debit and refund the client saw acknowledged
//   before the kill is there, exactly as answered; nothing refused left a row; every row
//   was asked for by a request that was acknowledged or in doubt at the kill.
// Requests that got no answer are sent again with the same Idempotency-Key once PocketBase
// is back, as a client would. After the last cycle the load stops and every request has a
// definite answer: the database holds exactly what was acknowledged, and each balance is the
// sum of the money moves its customer was told about.
import { afterAll, describe, expect, it } from "vitest";
import { checkAgainstBook } from "./support/acknowledged.ts";
import { checkMoneyInvariants, integrityCheck } from "./support/invariants.ts";
import { runLoad, tally } from "./support/load.ts";
import { Prng } from "./support/soak-client.ts";
import { PROFILE } from "./support/profile.ts";
import { loadOptionsFor, populate, startSoakShop, type SoakShop } from "./support/soak-shop.ts";

let shop: SoakShop | undefined;
afterAll(async () => {
  await shop?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`crash test (${PROFILE.name})`, () => {
  const seed = PROFILE.crashSeed;
  it(
    `survives ${PROFILE.crashCycles} kill -9s in the middle of the load (seed ${seed}, Stripe payments)`,
    async () => {
      shop = await startSoakShop("stripe");
      const running = shop;
      const population = await populate(running, {
        seed,
        customers: PROFILE.customers,
        startCents: 1000,
        stockPerPlace: PROFILE.customers,
      });
      const { book, admin } = population;
      const kills = Prng.derive(seed, "kills");
      let stopped = false;
      const load = runLoad(loadOptionsFor(running, population, seed, () => stopped));

      const afterKill: string[] = [];
      let inDoubtAtKills = 0;
      for (let cycle = 1; cycle <= PROFILE.crashCycles && afterKill.length === 0; cycle++) {
        // A random moment once the load is going again: after a restart PocketBase warms its JS
        // VMs and the cut-off requests are retried first, so wait for fresh answers, then a bit.
        const acks = book.acks + PROFILE.customers;
        const until = Date.now() + 60_000;
        while (book.acks < acks && Date.now() < until) await sleep(50);
        await sleep(kills.int(0, 1500));
        await running.kill9();
        const inDoubt = [...book.requests.values()].filter((r) => r.state === "inflight").length;
        inDoubtAtKills += inDoubt;
        const integrity = await integrityCheck(running.dbFile);
        if (integrity !== "ok") afterKill.push(`cycle ${cycle}: integrity_check: ${integrity}`);
        const report = await checkMoneyInvariants(running.dbFile);
        afterKill.push(...report.problems.map((p) => `cycle ${cycle}: ${p}`));
        const acked = await checkAgainstBook(running.dbFile, book, { adminId: admin.id, final: false, provider: "stripe" });
        afterKill.push(...acked.map((p) => `cycle ${cycle}: ${p}`));
        console.log(`crash seed ${seed} cycle ${cycle}: ${report.ledgerRows} ledger rows, ${inDoubt} requests in doubt at the kill`);
        await running.restart();
      }
      // A last stretch of load after the final restart, then every request must have its answer.
      await sleep(1000);
      stopped = true;
      await load;
      console.log(`crash seed ${seed}: ${JSON.stringify(tally(book))}; ${book.inDoubt} requests retried after a kill`);

      expect(afterKill, "what survived each kill").toEqual([]);
      expect(book.problems, "what the client saw").toEqual([]);
      expect(await integrityCheck(running.dbFile)).toBe("ok");
      const report = await checkMoneyInvariants(running.dbFile);
      expect(report.problems).toEqual([]);
      expect(await checkAgainstBook(running.dbFile, book, { adminId: admin.id, final: true, provider: "stripe" })).toEqual([]);
      // The kills really landed mid-load: requests were cut off and retried.
      expect(inDoubtAtKills, "requests in flight at the kills").toBeGreaterThan(0);
      expect(book.inDoubt).toBeGreaterThan(0);
    },
    PROFILE.crashTimeoutMs,
  );
});
