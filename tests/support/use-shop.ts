// One shop per describe (or file): a test PocketBase with its superuser and a signed-in
// admin, started before the tests and stopped after them, optionally with a mail sink or
// stripe-mock, and the ledger invariant checked after every test.
import { afterAll, afterEach, beforeAll } from "vitest";
import type PocketBase from "pocketbase";
import { startTestPocketBase, type TestPocketBase, type TestPocketBaseOptions } from "./pocketbase.ts";
import { expectEveryBalanceMatchesItsLedger, shopClients, type Shop } from "./shop.ts";
import { smtpEnv, startTestMailbox, type TestMailbox } from "./smtp-sink.ts";
import { startStripeMock, stripeEnv, type StripeMock } from "./stripe-mock.ts";

export interface ShopSetup {
  /** Added to the test PocketBase's environment (after the mail and Stripe variables). */
  env?: Record<string, string>;
  options?: TestPocketBaseOptions;
  /** Start an SMTP sink and point PocketBase at it. */
  mail?: boolean;
  /** Start stripe-mock and take payments with Stripe, signed with this webhook secret (true: the default one). */
  stripe?: boolean | string;
  /** Check after each test that every balance equals the sum of its ledger (default true). */
  ledger?: boolean;
}

export interface PocketBaseFixture {
  tpb: TestPocketBase;
  su: PocketBase;
}

export interface ShopFixture extends Shop {
  /** Set with `mail: true`. */
  mailbox: TestMailbox;
  /** Set with `stripe`. */
  stripe: StripeMock;
}

/**
 * Registers the hooks that start and stop a shop, and answers the object they fill in: use
 * its fields inside tests and hooks, not at collection time.
 */
export function useShop(setup: ShopSetup = {}): ShopFixture {
  return useFixture(setup, true) as ShopFixture;
}

/** `useShop` without the admin: the test PocketBase and its superuser. */
export function usePocketBase(setup: ShopSetup = {}): PocketBaseFixture & Pick<ShopFixture, "mailbox" | "stripe"> {
  return useFixture(setup, false);
}

function useFixture(setup: ShopSetup, withAdmin: boolean): PocketBaseFixture & Pick<ShopFixture, "mailbox" | "stripe"> {
  const shop = {} as PocketBaseFixture & Pick<ShopFixture, "mailbox" | "stripe">;
  beforeAll(async () => {
    const env: Record<string, string> = {};
    if (setup.mail) {
      shop.mailbox = await startTestMailbox();
      Object.assign(env, smtpEnv(shop.mailbox.sink));
    }
    if (setup.stripe) {
      shop.stripe = await startStripeMock();
      Object.assign(env, typeof setup.stripe === "string" ? stripeEnv(shop.stripe, setup.stripe) : stripeEnv(shop.stripe));
    }
    const tpb = await startTestPocketBase({ ...env, ...setup.env }, setup.options);
    Object.assign(shop, withAdmin ? await shopClients(tpb) : { tpb, su: await tpb.superuser() });
  });
  afterAll(async () => {
    await (shop.tpb as TestPocketBase | undefined)?.stop();
    await shop.stripe?.stop();
    await shop.mailbox?.stop();
  });
  if (setup.ledger ?? true) {
    afterEach(async () => {
      await expectEveryBalanceMatchesItsLedger(shop.su);
    });
  }
  return shop;
}
