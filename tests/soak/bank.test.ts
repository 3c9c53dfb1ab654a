// The bank test (issue #8, "Money under load and faults"): customers buy and renew proxies,
// buy credits, and an admin credits, debits and refunds them, all at once for a bounded
// time, with scarce balances and scarce stock so refusals happen, over several seeds. Then:
// the database is sound, the money invariants hold (support/invariants.ts), everything the
// client was told is there exactly, nothing it was refused or never asked for is, and each
// balance is the sum of the money moves its customer was told about.
// The seed picks the payment provider (odd: the test provider, credited at once; even: Stripe
// Checkout through stripe-mock, credited by signed webhooks the load delivers, some twice),
// so `SOAK_SEED=<n>` replays a seed as it ran.
// A few customers buy and renew through an API key (issue #18) with a monthly spend cap
// below what they try to spend, two requests at once on one key: their orders carry the key,
// the caps hold (a money invariant), and the purchases the caps refused changed nothing.
import { afterEach, describe, expect, it } from "vitest";
import { checkAgainstBook } from "./support/acknowledged.ts";
import { checkMoneyInvariants, integrityCheck } from "./support/invariants.ts";
import { queryRows } from "./support/sqlite.ts";
import { runLoad, tally } from "./support/load.ts";
import { PROFILE } from "./support/profile.ts";
import { loadOptionsFor, populate, startSoakShop, type SoakShop } from "./support/soak-shop.ts";

/** The key buyers' monthly cap: under their starting balance, so the cap refuses before the balance does. */
const KEY_CAP_CENTS = 900;

let shop: SoakShop | undefined;
afterEach(async () => {
  await shop?.stop();
  shop = undefined;
});

describe(`bank test (${PROFILE.name}: ${PROFILE.bankSeeds.length} seed(s) x ${PROFILE.bankSeconds} s, ${PROFILE.customers} customers)`, () => {
  it.each(PROFILE.bankSeeds.map((seed) => [seed, seed % 2 === 0 ? "stripe" : "test"] as const))(
    "seed %i (%s payments): money adds up under concurrent load",
    async (seed, provider) => {
      shop = await startSoakShop(provider);
      const population = await populate(shop, {
        seed,
        customers: PROFILE.customers,
        startCents: 1000,
        stockPerPlace: PROFILE.customers,
        keyBuyers: PROFILE.keyBuyers,
        keyCapCents: KEY_CAP_CENTS,
      });
      const deadline = Date.now() + PROFILE.bankSeconds * 1000;
      await runLoad(loadOptionsFor(shop, population, seed, () => Date.now() > deadline));
      const { book } = population;
      const counts = tally(book);
      console.log(`bank seed ${seed} (${provider}): ${JSON.stringify(counts)}`);

      expect(book.problems, "what the client saw").toEqual([]);
      expect(book.inDoubt, "requests without an answer (nothing was killed)").toBe(0);
      expect(await integrityCheck(shop.dbFile)).toBe("ok");
      const report = await checkMoneyInvariants(shop.dbFile);
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
      expect(await checkAgainstBook(shop.dbFile, book, { adminId: population.admin.id, final: true, provider })).toEqual([]);

      // The load did what it is for: purchases, renewals, payments, admin moves, and refusals
      // for want of money and of stock.
      const sum = (prefix: string) => Object.entries(counts).reduce((n, [k, v]) => n + (k.startsWith(prefix) ? v : 0), 0);
      for (const kind of ["purchase.acked", "renewal.acked", "checkout.acked", "credit.acked", "debit.acked", "refund.acked"]) {
        expect(sum(kind), kind).toBeGreaterThan(0);
      }
      expect(sum("purchase.refused.409"), "purchases refused for want of stock").toBeGreaterThan(0);
      expect(sum("purchase.refused.403") + sum("renewal.refused.403"), "purchases refused by a key's spend cap").toBeGreaterThan(0);

      // The key buyers' orders were made with their keys (so the invariants' cap check had
      // something to check), and each key spent at most its cap.
      const keyBuyers = population.customers.filter((c) => c.apiKey);
      expect(keyBuyers.length).toBe(PROFILE.keyBuyers);
      const ordered = await queryRows<{ user_id: string; api_key_id: string; total_cents: number }>(
        shop.dbFile,
        "SELECT user_id, api_key_id, total_cents FROM proxy_orders",
      );
      for (const buyer of keyBuyers) {
        const theirs = ordered.filter((o) => o.user_id === buyer.id);
        expect(theirs.length, `orders of key buyer ${buyer.id}`).toBeGreaterThan(0);
        expect(new Set(theirs.map((o) => o.api_key_id)), `the keys of ${buyer.id}'s orders`).toEqual(new Set([buyer.apiKey?.id]));
        const spent = theirs.reduce((n, o) => n + o.total_cents, 0);
        expect(spent, `what ${buyer.id}'s key spent`).toBeLessThanOrEqual(KEY_CAP_CENTS);
      }
      for (const other of population.customers.filter((c) => !c.apiKey)) {
        expect(ordered.filter((o) => o.user_id === other.id && o.api_key_id !== "").length, `keyed orders of ${other.id}`).toBe(0);
      }
      expect(
        sum("purchase.refused.400") + sum("renewal.refused.400") + sum("debit.refused.400"),
        "refusals for want of money",
      ).toBeGreaterThan(0);
    },
  );
});
