// The expiry job (run on demand through its superuser route), the mails it sends, and
// the account rules around money: the verification mail at sign-up, the welcome credit on
// first verification, the support ticket route and the staff-reply mail.
import { randomUUID } from "node:crypto";
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { errorOf, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { customer, DAY, iso, ledgerOf, post, proxyBuyer, runExpiryJob as runExpiryJobOf, setProxyColumns } from "../support/shop.ts";
import { linkFrom, waitForMail } from "../support/smtp-sink.ts";
import { useShop } from "../support/use-shop.ts";

const APP_URL = "http://shop.test:4321";
const shop = useShop({ mail: true, env: { SHOP_APP_URL: APP_URL } });

const runExpiryJob = () => runExpiryJobOf(shop);

/** A customer owning `count` proxies of a fresh country, bought through the purchase route. */
const owner = (count: number, cents = 10_000) => proxyBuyer(shop, { count, cents });

/** The records API refuses these fields (finding 6): the test writes them in data.db. */
const setProxy = async (proxy: { id: string }, fields: Record<string, string | number | boolean>) =>
  setProxyColumns(shop.tpb, [proxy.id], fields);
const proxyNow = (proxy: { id: string }) => shop.su.collection("proxies").getOne(proxy.id);

describe("the expiry job", () => {
  it("expires proxies past their date; they leave the customer's active proxies", async () => {
    const { user, proxies } = await owner(2);
    await setProxy(proxies[0]!, { expires_at: iso(Date.now() - 60_000) });
    await runExpiryJob();
    expect((await proxyNow(proxies[0]!))["status"]).toBe("EXPIRED");
    expect((await proxyNow(proxies[1]!))["status"]).toBe("ASSIGNED");
    const active = await user.pb.collection("proxies").getList(1, 10, { filter: 'status = "ASSIGNED"' });
    expect(active.totalItems).toBe(1);
  });

  it("renews auto-renew proxies at expiry when the balance covers them, in one order per customer", async () => {
    const { user, proxies } = await owner(2, 900 + 900);
    for (const proxy of proxies) await setProxy(proxy, { auto_renew: true, expires_at: iso(Date.now() - 1000) });
    await runExpiryJob();
    for (const proxy of proxies) {
      const now = await proxyNow(proxy);
      expect(now["status"]).toBe("ASSIGNED");
      expect(Date.parse(String(now["expires_at"]).replace(" ", "T"))).toBeGreaterThan(Date.now() + 29 * DAY);
    }
    const { rows, balance } = await ledgerOf(shop, user.id);
    expect(balance).toBe(0);
    expect(rows.filter((r) => String(r["description"]).startsWith("Automatic renewal of 2 proxies"))).toHaveLength(1);
  });

  it("expires auto-renew proxies the balance does not cover and mails the customer why", async () => {
    const { user, proxies } = await owner(1, 450);
    await setProxy(proxies[0]!, { auto_renew: true, expires_at: iso(Date.now() - 1000) });
    const after = Date.now() - 1000;
    await runExpiryJob();
    expect((await proxyNow(proxies[0]!))["status"]).toBe("EXPIRED");
    const mail = await waitForMail(shop.mailbox.sink, user.email, /automatic renewal failed/i, { after });
    expect(mail.text).toContain("Insufficient balance");
    expect(mail.text).toContain(`${proxies[0]!["host"]}:${proxies[0]!["port"]}`);
    expect(mail.text).toContain(`${APP_URL}/dashboard/proxies`);
    expect((await ledgerOf(shop, user.id)).balance).toBe(0);
  });

  it("mails one reminder listing the proxies that expire within 3 days, once", async () => {
    const { user, proxies } = await owner(3);
    await setProxy(proxies[0]!, { expires_at: iso(Date.now() + 2 * DAY) });
    await setProxy(proxies[1]!, { expires_at: iso(Date.now() + 1 * DAY), auto_renew: true });
    const after = Date.now() - 1000;
    await runExpiryJob();
    const mail = await waitForMail(shop.mailbox.sink, user.email, /2 proxies expire soon/, { after });
    expect(mail.text).toContain(`${proxies[0]!["host"]}:${proxies[0]!["port"]}`);
    expect(mail.text).toMatch(/auto-renews/);
    expect(mail.text).not.toContain(`:${proxies[2]!["port"]} `);
    await runExpiryJob();
    await new Promise((r) => setTimeout(r, 300));
    expect(shop.mailbox.sink.messages.filter((m) => m.to.includes(user.email) && /expire soon/.test(m.subject))).toHaveLength(1);
    expect((await proxyNow(proxies[0]!))["expiry_notice_sent_at"]).toBeTruthy();
    // A renewal resets the reminder for the next term.
    await post(user.pb, "/api/v1/proxies/renew", { proxy_ids: [proxies[0]!.id] });
    expect((await proxyNow(proxies[0]!))["expiry_notice_sent_at"]).toBe("");
  });

  it("returns proxies expired for over 7 days to stock with a new password", async () => {
    const { user, proxies } = await owner(1);
    const proxy = proxies[0]!;
    await setProxy(proxy, { status: "EXPIRED", expires_at: iso(Date.now() - 8 * DAY), auto_renew: true });
    await runExpiryJob();
    const now = await proxyNow(proxy);
    expect(now).toMatchObject({ status: "AVAILABLE", assigned_to_user_id: "", expires_at: "", auto_renew: false });
    expect(now["password"]).not.toBe(proxy["password"]);
    expect(await user.pb.collection("proxies").getFullList()).toHaveLength(0);
  });
});

describe("accounts and money", () => {
  it("sign-up mails a verification link; the first verification grants the welcome credit once", async () => {
    const email = `welcome-${randomUUID()}@api.test`;
    const after = Date.now() - 1000;
    const auth = await shop.tpb.client().send<{ record: RecordModel }>("/api/shop/signup", {
      method: "POST",
      body: { first_name: "Wendy", last_name: "Welcome", email, country: "Chile" },
    });
    const mail = await waitForMail(shop.mailbox.sink, email, /verify/i, { after });
    expect(mail.text).toContain(`${APP_URL}/login?verify=`);
    expect((await ledgerOf(shop, auth.record.id)).rows).toHaveLength(0);

    const token = new URL(linkFrom(mail, "/login?verify=")).searchParams.get("verify")!;
    await shop.tpb.client().collection("users").confirmVerification(token);
    let ledger = await ledgerOf(shop, auth.record.id);
    expect(ledger.rows.map((r) => [r["type"], r["amount_cents"], r["description"], r["reference"]])).toEqual([
      ["CREDIT", 500, "Welcome credit", "welcome"],
    ]);
    // Unverified and verified again: still one welcome credit.
    await shop.su.collection("users").update(auth.record.id, { verified: false });
    await shop.su.collection("users").update(auth.record.id, { verified: true });
    ledger = await ledgerOf(shop, auth.record.id);
    expect(ledger.rows).toHaveLength(1);
    expect(ledger.balance).toBe(500);
  });

  it("grants no welcome credit when welcome_credit_cents is 0", async () => {
    const setting = await shop.su.collection("settings").getFirstListItem('key = "welcome_credit_cents"');
    await shop.admin.collection("settings").update(setting.id, { value: "0" });
    try {
      const auth = await shop.tpb.client().send<{ record: RecordModel }>("/api/shop/signup", {
        method: "POST",
        body: { first_name: "Zero", last_name: "Credit", email: `zero-${randomUUID()}@api.test`, country: "Chile" },
      });
      await shop.su.collection("users").update(auth.record.id, { verified: true });
      expect((await ledgerOf(shop, auth.record.id)).rows).toHaveLength(0);
    } finally {
      await shop.admin.collection("settings").update(setting.id, { value: "500" });
    }
  });

  it("opens a ticket with its first message in one call, with the form's rules", async () => {
    const user = await customer(shop);
    const res = await user.pb.send<{ ticket: RecordModel; message: RecordModel }>("/api/v1/support/tickets", {
      method: "POST",
      body: {
        subject: "  Cannot connect  ",
        message: "My proxy refuses every connection since noon.",
        priority: "high",
        status: "closed",
        user_id: "x",
      },
    });
    expect(res.ticket).toMatchObject({ user_id: user.id, subject: "Cannot connect", priority: "high", status: "open" });
    expect(res.message).toMatchObject({ ticket_id: res.ticket.id, sender_id: user.id, is_admin_message: false });

    const err = await errorOf(() =>
      user.pb.send("/api/v1/support/tickets", { method: "POST", body: { subject: "Hey", message: "short", priority: "asap" } }),
    );
    expect(err.status).toBe(400);
    expect(fieldErrorsOf(err)).toMatchObject({
      subject: { message: "Subject must be at least 5 characters." },
      message: { message: "Message must be at least 10 characters." },
      priority: { message: "Priority must be low, medium, high or urgent." },
    });
    expect(await statusOf(() => shop.tpb.client().send("/api/v1/support/tickets", { method: "POST", body: {} }))).toBe(401);
    expect(await user.pb.collection("support_tickets").getFullList()).toHaveLength(1);
  });

  it("mails the customer when staff reply, with a link to the ticket", async () => {
    const user = await customer(shop);
    const { ticket } = await user.pb.send<{ ticket: RecordModel }>("/api/v1/support/tickets", {
      method: "POST",
      body: { subject: "Billing question", message: "Can I get an invoice for my purchase?" },
    });
    const after = Date.now() - 1000;
    const adminId = shop.admin.authStore.record!.id;
    await shop.admin
      .collection("chat_messages")
      .create({ ticket_id: ticket.id, sender_id: adminId, message: "Sure, <b>attached</b> is your invoice." });
    const mail = await waitForMail(shop.mailbox.sink, user.email, new RegExp(`New reply to your ticket #${ticket.id.slice(0, 8)}`), {
      after,
    });
    expect(mail.text).toContain("Sure, <b>attached</b> is your invoice.");
    expect(mail.text).toContain(`${APP_URL}/dashboard/support?ticket=${ticket.id}`);
    // The customer's own messages mail nobody.
    await user.pb.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: user.id, message: "Thanks!" });
    await new Promise((r) => setTimeout(r, 300));
    expect(shop.mailbox.sink.messages.filter((m) => m.to.includes(user.email) && /New reply/.test(m.subject))).toHaveLength(1);
  });

  it("keeps attachments for the ticket's owner and admins only", async () => {
    const user = await customer(shop);
    const { ticket } = await user.pb.send<{ ticket: RecordModel }>("/api/v1/support/tickets", {
      method: "POST",
      body: { subject: "Screenshot of the error", message: "See the attached screenshot please." },
    });
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    const form = new FormData();
    form.append("ticket_id", ticket.id);
    form.append("sender_id", user.id);
    form.append("message", "Here it is");
    form.append("attachments", new Blob([png], { type: "image/png" }), "error.png");
    const message = await user.pb.collection("chat_messages").create(form);
    const file = (message["attachments"] as string[])[0]!;
    const url = (token: string) => `${shop.tpb.url}/api/files/chat_messages/${message.id}/${file}?token=${token}`;

    expect((await fetch(url(await user.pb.files.getToken()))).status).toBe(200);
    expect((await fetch(url(await shop.admin.files.getToken()))).status).toBe(200);
    const stranger = await customer(shop);
    expect((await fetch(url(await stranger.pb.files.getToken()))).status).toBe(404);
    expect((await fetch(url(""))).status).toBe(404);

    // Only images and PDFs, at most 5 MB.
    const bad = new FormData();
    bad.append("ticket_id", ticket.id);
    bad.append("sender_id", user.id);
    bad.append("message", "An executable");
    bad.append("attachments", new Blob(["MZ"], { type: "application/x-msdownload" }), "tool.exe");
    expect(await statusOf(() => user.pb.collection("chat_messages").create(bad))).toBe(400);
  });
});
