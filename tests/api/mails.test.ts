// The mails a shop sends (issue #15): a receipt for each credit purchase and proxy purchase
// (amounts, balance after, proxies bought), a refund notice, a ticket-closed notice, and to
// staff (setting staff_notification_email, else contact_email) a new ticket and a new
// contact-form message. Each has a text and an HTML part and links to the page it is about;
// an Idempotency-Key replay or a repeated Stripe webhook mails nobody again.
import { randomUUID } from "node:crypto";
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import type { ConsoleSettings } from "@/features/console-settings/api";
import { adminSend, setSetting } from "../support/admin.ts";
import { errorOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { addStock, customer, post, purchase } from "../support/shop.ts";
import { waitForMail, type CapturedMail } from "../support/smtp-sink.ts";
import { deliverStripe, paidSession, stripeEvent } from "../support/stripe-mock.ts";
import { useShop } from "../support/use-shop.ts";

const APP_URL = "http://shop.test:4321";

/** Mails to `to` whose subject matches. */
const mailsTo = (mails: CapturedMail[], to: string, subject: RegExp) => mails.filter((m) => m.to.includes(to) && subject.test(m.subject));
const settle = () => new Promise((r) => setTimeout(r, 400));

function expectBothParts(mail: CapturedMail, link: string) {
  expect(mail.text).toContain(link);
  expect(mail.html).toContain(`href="${link}"`);
}

describe("mails of the test payment provider, purchases, refunds and support", () => {
  const shop = useShop({ mail: true, env: { SHOP_APP_URL: APP_URL } });
  const messages = () => shop.mailbox.sink.messages;

  it("a credit purchase sends one receipt with the amounts and the balance after; a replay sends none", async () => {
    const user = await customer(shop, 300);
    const key = randomUUID();
    const after = Date.now() - 1000;
    await post(user.pb, "/api/v1/credits/checkout", { package_id: "package-25" }, key);
    const mail = await waitForMail(shop.mailbox.sink, user.email, /Receipt for \$26\.00 in credits/, { after });
    expect(mail.subject).toBe("ProxyShop: Receipt for $26.00 in credits");
    expect(mail.text).toContain("Credits purchased: $25.00");
    expect(mail.text).toContain("Bonus credits: $1.00");
    expect(mail.text).toContain("Amount paid: $24.00");
    expect(mail.text).toContain("Balance after: $29.00");
    expect(mail.html).toContain("<strong>$29.00</strong>");
    expectBothParts(mail, `${APP_URL}/dashboard/transactions`);

    await post(user.pb, "/api/v1/credits/checkout", { package_id: "package-25" }, key);
    await settle();
    expect(mailsTo(messages(), user.email, /Receipt for/)).toHaveLength(1);
  });

  it("a proxy purchase sends one receipt naming the proxies, the total and the balance after; a replay sends none", async () => {
    const country = `M${randomUUID().slice(0, 6)}`;
    await addStock(shop, { country, count: 2 });
    const user = await customer(shop, 5000);
    const key = randomUUID();
    const after = Date.now() - 1000;
    const res = await purchase(user.pb, { type: "RESIDENTIAL", country, quantity: 2 }, key);
    const number = res.order.id.slice(0, 8).toUpperCase();
    const mail = await waitForMail(shop.mailbox.sink, user.email, new RegExp(`Receipt for order ${number}`), { after });
    expect(mail.subject).toBe(`ProxyShop: Receipt for order ${number} (2 Residential proxies)`);
    expect(mail.text).toContain(`Total: $${(res.order.total_cents / 100).toFixed(2)}`);
    expect(mail.text).toContain(`Balance after: $${(res.balance_cents / 100).toFixed(2)}`);
    for (const proxy of res.proxies) {
      expect(mail.text).toContain(`- ${proxy.host}:${proxy.port} (Residential, ${country})`);
      // Credentials stay in the dashboard.
      expect(mail.text).not.toContain(String(proxy.password));
    }
    expect(mail.html).toContain(`<li>${res.proxies[0]!.host}:${res.proxies[0]!.port}`);
    expectBothParts(mail, `${APP_URL}/dashboard/proxies`);

    const replay = await purchase(user.pb, { type: "RESIDENTIAL", country, quantity: 2 }, key);
    expect(replay.order.id).toBe(res.order.id);
    await settle();
    expect(mailsTo(messages(), user.email, /Receipt for order/)).toHaveLength(1);
  });

  it("a refund sends the customer one notice with the amount, the reason and the balance after", async () => {
    const country = `R${randomUUID().slice(0, 6)}`;
    await addStock(shop, { country, count: 1 });
    const user = await customer(shop, 2000);
    const bought = await purchase(user.pb, { type: "RESIDENTIAL", country, quantity: 1 });
    const number = bought.order.id.slice(0, 8).toUpperCase();
    const key = randomUUID();
    const after = Date.now() - 1000;
    await post(shop.admin, `/api/admin/orders/${bought.order.id}/refund`, { reason: "Proxy never connected" }, key);
    const mail = await waitForMail(shop.mailbox.sink, user.email, new RegExp(`Refund of order ${number}`), { after });
    const total = `$${(bought.order.total_cents / 100).toFixed(2)}`;
    expect(mail.subject).toBe(`ProxyShop: Refund of order ${number} (${total})`);
    expect(mail.text).toContain(`Refunded: ${total}`);
    expect(mail.text).toContain("Balance after: $20.00");
    expect(mail.text).toContain("Reason: Proxy never connected");
    expectBothParts(mail, `${APP_URL}/dashboard/transactions`);

    await post(shop.admin, `/api/admin/orders/${bought.order.id}/refund`, { reason: "Proxy never connected" }, key);
    await settle();
    expect(mailsTo(messages(), user.email, /Refund of order/)).toHaveLength(1);
  });

  it("contact messages go to the contact e-mail until a staff address is set, never public", async () => {
    const after = Date.now() - 1000;
    await shop.tpb.client().collection("contact_messages").create({
      name: "Grace Hopper",
      email: "grace@example.test",
      subject: "Volume pricing",
      message: "Do you offer a discount for 500 proxies a month?",
      type: "billing",
    });
    const mail = await waitForMail(shop.mailbox.sink, "support@proxyshop.example", /New contact message: Volume pricing/, { after });
    expect(mail.text).toContain("Grace Hopper <grace@example.test>");
    expect(mail.text).toContain("Do you offer a discount for 500 proxies a month?");
    expectBothParts(mail, `${APP_URL}/console/messages`);

    // The staff address is edited in the console and never listed to visitors.
    const settings = await shop.admin.send<ConsoleSettings>("/api/admin/settings", { method: "GET" });
    expect(settings.staff_notification_email).toBe("");
    const bad = await errorOf(() =>
      adminSend(shop.admin, "/api/admin/settings", { ...settings, staff_notification_email: "not-an-address" }, "PUT"),
    );
    expect(fieldErrorsOf(bad)).toMatchObject({
      staff_notification_email: { message: "Staff notification email must be a valid email, or empty." },
    });
    await adminSend(shop.admin, "/api/admin/settings", { ...settings, staff_notification_email: "Staff@Shop.test" }, "PUT");
    const publicKeys = (await shop.tpb.client().collection("settings").getFullList({ fields: "key" })).map((r) => r["key"]);
    expect(publicKeys).not.toContain("staff_notification_email");

    await shop.tpb.client().collection("contact_messages").create({
      name: "Alan Turing",
      email: "alan@example.test",
      subject: "Partnership idea",
      message: "We would like to resell your proxies in Europe.",
      type: "partnership",
    });
    await waitForMail(shop.mailbox.sink, "staff@shop.test", /New contact message: Partnership idea/, { after });
  });

  it("a new ticket mails staff; closing it mails its owner once", async () => {
    await setSetting(shop.su, "staff_notification_email", "desk@shop.test");
    const user = await customer(shop);
    const after = Date.now() - 1000;
    const { ticket } = await user.pb.send<{ ticket: RecordModel }>("/api/v1/support/tickets", {
      method: "POST",
      body: { subject: "Cannot connect", message: "Every proxy times out since this morning.", priority: "high" },
    });
    const number = ticket.id.slice(0, 8);
    const staff = await waitForMail(shop.mailbox.sink, "desk@shop.test", new RegExp(`New ticket #${number}: Cannot connect`), { after });
    expect(staff.text).toContain(`${user.email} opened ticket #${number} "Cannot connect" (high priority)`);
    expect(staff.text).toContain("Every proxy times out since this morning.");
    expectBothParts(staff, `${APP_URL}/console/support?ticket=${ticket.id}`);

    await shop.admin.collection("support_tickets").update(ticket.id, { status: "closed" });
    const closed = await waitForMail(shop.mailbox.sink, user.email, new RegExp(`Your ticket #${number} was closed`), { after });
    expect(closed.text).toContain('"Cannot connect" was closed');
    expectBothParts(closed, `${APP_URL}/dashboard/support?ticket=${ticket.id}`);

    // Saving it closed again is no new closing.
    await shop.admin.collection("support_tickets").update(ticket.id, { priority: "low" });
    await settle();
    expect(mailsTo(messages(), user.email, /was closed/)).toHaveLength(1);
  });
});

describe("the Stripe receipt", () => {
  const shop = useShop({ mail: true, stripe: true });

  it("goes out once when the webhook credits the payment, not again when Stripe delivers it again", async () => {
    const user = await customer(shop);
    const { payment } = await post<{ payment: RecordModel }>(user.pb, "/api/v1/credits/checkout", { package_id: "package-10" });
    const after = Date.now() - 1000;
    const payload = stripeEvent("checkout.session.completed", paidSession(payment), `evt_${payment.id}`);
    expect((await deliverStripe(shop.tpb.url, payload)).status).toBe(200);
    const mail = await waitForMail(shop.mailbox.sink, user.email, /Receipt for \$10\.00 in credits/, { after });
    expect(mail.text).toContain("Amount paid: $10.00");
    expect(mail.text).toContain("Balance after: $10.00");
    expectBothParts(mail, "https://shop.test/dashboard/transactions");

    expect((await deliverStripe(shop.tpb.url, payload)).status).toBe(200);
    await settle();
    expect(mailsTo(shop.mailbox.sink.messages, user.email, /Receipt for/)).toHaveLength(1);
  });
});
