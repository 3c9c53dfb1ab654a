// A shop with rows of every kind for the hostile suites: two customers A and B who each
// own a balance and ledger, bought and renewed proxies, paid for credits, opened a ticket
// with an attachment and got a staff reply, and earned a referral commission; an
// unverified customer; an admin; a contact message; an open admin invitation. Every row is
// made through the shop's own routes (or as the superuser where a customer cannot). The
// shop takes payments with Stripe (stripe-mock on loopback): only real payments earn
// commissions.
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { createTestUser, signIn, startTestPocketBase, type TestPocketBase, type TestUser } from "../../support/pocketbase.ts";
import { createSupportTicket } from "@/lib/api-contract/support";
import { renewProxies } from "@/lib/api-contract/proxies";
import { addStock, callAs, checkout, credit, customer, purchase, shopClients, type Customer, type Shop } from "../../support/shop.ts";
import { payByStripe, startStripeMock, stripeEnv, type StripeMock } from "../../support/stripe-mock.ts";

/** A 1x1 PNG: a real image, so PocketBase's MIME sniffing accepts it as an attachment. */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The per-customer collections: each customer's rows there are theirs (and admins') to read alone. */
export const OWNED_COLLECTIONS = [
  "balances",
  "transactions",
  "proxies",
  "proxy_orders",
  "payments",
  "support_tickets",
  "chat_messages",
  "affiliates",
  "referrals",
  "commissions",
] as const;

/** The ids of one customer's rows, per collection (what they may read, and nobody else but admins). */
export interface OwnedRows {
  user: Customer;
  balances: string[];
  transactions: string[];
  proxies: string[];
  proxy_orders: string[];
  payments: string[];
  support_tickets: string[];
  chat_messages: string[];
  affiliates: string[];
  referrals: string[];
  commissions: string[];
  /** chat_messages id -> its attachment file names. */
  attachments: Record<string, string[]>;
  /** The customer who signed up with this customer's code (and paid, earning the commission). */
  referred: TestUser & { id: string };
}

export interface HostileShop extends Shop {
  adminUser: TestUser;
  A: OwnedRows;
  B: OwnedRows;
  /** Signed in, never verified: may not buy. */
  unverified: Customer;
  contactMessageId: string;
  invitationId: string;
  settingIds: string[];
  planIds: string[];
  /** AVAILABLE stock nobody owns. */
  stockIds: string[];
}

let seq = 0;

async function ticketWithAttachment(
  shop: Shop,
  owner: Customer,
  subject: string,
): Promise<{ ticket: string; messages: string[]; files: Record<string, string[]> }> {
  const { ticket } = await callAs(owner.pb, createSupportTicket, {
    body: { subject, message: `${subject}: the first message of this ticket.`, priority: "high" },
  });
  const form = new FormData();
  form.append("ticket_id", ticket.id);
  form.append("sender_id", owner.id);
  form.append("message", `Screenshot for ${subject}`);
  form.append("attachments", new Blob([PNG_1X1], { type: "image/png" }), "screenshot.png");
  const withFile = await owner.pb.collection("chat_messages").create(form);
  const reply = await shop.admin.collection("chat_messages").create({
    ticket_id: ticket.id,
    sender_id: shop.admin.authStore.record?.id,
    message: `Staff reply about ${subject}`,
  });
  const all = await shop.su.collection("chat_messages").getFullList({ filter: shop.su.filter("ticket_id = {:t}", { t: ticket.id }) });
  return {
    ticket: ticket.id,
    messages: all.map((m) => m.id),
    files: { [withFile.id]: withFile["attachments"] as string[], [reply.id]: [] },
  };
}

async function ownedRows(shop: Shop, tag: "A" | "B"): Promise<OwnedRows> {
  const user = await customer(shop, 20_000);
  const su = shop.su;
  const country = `H${tag}${seq++}`;
  await addStock(shop, { type: "RESIDENTIAL", country, count: 3 });
  const bought = await purchase(user.pb, { type: "RESIDENTIAL", country, quantity: 2 });
  await callAs(user.pb, renewProxies, { body: { proxy_ids: [bought.proxies[0]!.id] } });
  const own = await checkout(user.pb, "package-10");
  await payByStripe(shop.tpb.url, own.payment);
  const { ticket, messages, files } = await ticketWithAttachment(shop, user, `Ticket of customer ${tag}`);

  // Someone signs up with this customer's code, verifies and pays: a referral and a commission.
  const affiliate = await su.collection("affiliates").getFirstListItem(su.filter("user_id = {:id}", { id: user.id }));
  const email = `referred-${tag.toLowerCase()}-${randomUUID().slice(0, 8)}@hostile.test`;
  const signup = await shop.tpb.client().send<{ token: string; record: RecordModel }>("/api/shop/signup", {
    method: "POST",
    body: { first_name: "Referred", last_name: `By${tag}`, email, country: "Spain", ref: affiliate["code"] },
  });
  const password = `Referred#${randomUUID()}`;
  await su.collection("users").update(signup.record.id, { verified: true, password, passwordConfirm: password });
  const referred = await signIn(shop.tpb, { email, password });
  const paid = await checkout(referred, "package-25");
  await payByStripe(shop.tpb.url, paid.payment);

  const ids = async (collection: string, filter: string) =>
    (await su.collection(collection).getFullList({ filter: su.filter(filter, { id: user.id, aff: affiliate.id }), fields: "id" })).map(
      (r) => r.id,
    );
  return {
    user,
    balances: await ids("balances", "user_id = {:id}"),
    transactions: await ids("transactions", "user_id = {:id}"),
    proxies: await ids("proxies", "assigned_to_user_id = {:id}"),
    proxy_orders: await ids("proxy_orders", "user_id = {:id}"),
    payments: await ids("payments", "user_id = {:id}"),
    support_tickets: [ticket],
    chat_messages: messages,
    affiliates: [affiliate.id],
    referrals: await ids("referrals", "affiliate_id = {:aff}"),
    commissions: await ids("commissions", "affiliate_id = {:aff}"),
    attachments: files,
    referred: { id: signup.record.id, email, password },
  };
}

/** A fresh test PocketBase that takes payments through a stripe-mock of its own. */
export async function startStripeShop(
  env: Record<string, string> = {},
): Promise<{ tpb: TestPocketBase; stripe: StripeMock; stop(): Promise<void> }> {
  const stripe = await startStripeMock();
  const tpb = await startTestPocketBase({ ...stripeEnv(stripe), ...env });
  return {
    tpb,
    stripe,
    async stop() {
      await tpb.stop();
      await stripe.stop();
    },
  };
}

/** Arranges the shop on `tpb` (a fresh test PocketBase from startStripeShop). */
export async function hostileShop(tpb: TestPocketBase): Promise<HostileShop> {
  const shop = await shopClients(tpb);
  const su = shop.su;
  const adminRecord = shop.admin.authStore.record!;
  const A = await ownedRows(shop, "A");
  const B = await ownedRows(shop, "B");
  for (const collection of OWNED_COLLECTIONS) {
    // Every collection holds rows of A's, or the suites would check nothing there.
    if (A[collection].length === 0) throw new Error(`The hostile shop made no ${collection} rows for customer A`);
  }
  const unverified = await customer(shop, 0, { verified: false });
  const stockIds = await addStock(shop, { type: "DATACENTER", country: "US", count: 3 });

  const contact = await tpb.client().collection("contact_messages").create({
    name: "Curious Visitor",
    email: "visitor@hostile.test",
    subject: "A question about plans",
    message: "Do you offer discounts for yearly plans?",
    type: "general",
  });
  const registration = await su.collection("settings").getFirstListItem(su.filter("key = {:k}", { k: "admin_registration_enabled" }));
  await su.collection("settings").update(registration.id, { value: "true" });
  const invitation = await shop.admin.send<{ id: string }>("/api/admin/invitations", { method: "POST", body: {} });
  await credit(shop, A.user.id, 1); // one more ledger row written by an admin

  return {
    ...shop,
    adminUser: { id: adminRecord.id, email: adminRecord["email"] as string, password: "" },
    A,
    B,
    unverified,
    contactMessageId: contact.id,
    invitationId: invitation.id,
    settingIds: (await su.collection("settings").getFullList({ fields: "id" })).map((r) => r.id),
    planIds: (await su.collection("pricing_plans").getFullList({ fields: "id" })).map((r) => r.id),
    stockIds,
  };
}

/** A client signed in as a user made by the superuser with `fields`. */
export async function extraUser(tpb: TestPocketBase, su: PocketBase, fields: Parameters<typeof createTestUser>[1] = {}): Promise<Customer> {
  const user = await createTestUser(su, fields);
  return { ...user, pb: await signIn(tpb, user) };
}
