// Support (spec 2.18, 4, 5) end to end in Chromium against the real shop: a new ticket,
// a staff reply from a second browser arriving live (and by e-mail), Enter / Shift+Enter,
// a ticket closed live, and protected attachments.
import { expect, test, type Browser, type Page } from "@playwright/test";
import PocketBase from "pocketbase";
import { createTestUser } from "../support/pocketbase.ts";
import { waitForMail } from "../support/smtp-sink.ts";
import { adminClient, createCustomer, signInAs, uniqueEmail } from "./support/customers.ts";
import { E2E } from "./support/env.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";

const mailbox = (): string => {
  const url = process.env["E2E_MAILBOX_URL"];
  if (!url) throw new Error("E2E_MAILBOX_URL is not set (tests/e2e/support/global-setup.ts)");
  return url;
};

// A 1x1 PNG.
const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** A PocketBase client signed in as `user` (the customer's own API access). */
async function clientOf(user: { email: string; password: string }): Promise<PocketBase> {
  const pb = new PocketBase(E2E.pocketbaseUrl);
  pb.autoCancellation(false);
  await pb.collection("users").authWithPassword(user.email, user.password);
  return pb;
}

/** Opens a ticket through the route the page uses; returns its id. */
async function openTicket(user: { email: string; password: string }, subject: string, message: string): Promise<string> {
  const pb = await clientOf(user);
  const res = await pb.send<{ ticket: { id: string } }>("/api/v1/support/tickets", {
    method: "POST",
    body: { subject, message, priority: "medium" },
  });
  return res.ticket.id;
}

async function messagesOf(ticketId: string) {
  const su = await superuserClient();
  return su.collection("chat_messages").getFullList({ filter: su.filter("ticket_id = {:ticketId}", { ticketId }), sort: "created" });
}

/** What staff replies are labelled with: the default_support_name setting, or "Support". */
async function staffLabel(): Promise<string> {
  const su = await superuserClient();
  const rows = await su.collection("settings").getFullList({ filter: 'key = "default_support_name"' });
  return String(rows[0]?.["value"] ?? "").trim() || "Support";
}

/** An admin signed in through /login in a browser context of their own. */
async function adminPage(browser: Browser): Promise<Page> {
  const admin = await createTestUser(await superuserClient(), {
    email: uniqueEmail("staff"),
    password: "Staff#E2e2026",
    first_name: "Sam",
    last_name: "Staff",
    is_admin: true,
    onboarding_completed: true,
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, admin, "/dashboard/settings");
  return page;
}

/** Posts a chat message from that admin's page, with the admin's own token. */
async function replyAsStaff(page: Page, ticketId: string, message: string): Promise<number> {
  return page.evaluate(
    async ({ ticketId, message }) => {
      const auth = JSON.parse(localStorage.getItem("pocketbase_auth") ?? "{}") as { token: string; record: { id: string } };
      const res = await fetch("/api/collections/chat_messages/records", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: auth.token },
        body: JSON.stringify({ ticket_id: ticketId, sender_id: auth.record.id, message }),
      });
      return res.status;
    },
    { ticketId, message },
  );
}

test.describe.configure({ timeout: 60_000 });

const messageBox = (page: Page) => page.getByRole("textbox", { name: "Your message" });
const thread = (page: Page) => page.getByRole("log", { name: "Messages" });

test("a new ticket: the form's messages, then the ticket is created, selected and shows its first message", async ({ page }) => {
  const customer = await createCustomer();
  await signInAs(page, customer, "/dashboard/support");
  await expect(page.getByRole("heading", { name: "Select a Ticket" })).toBeVisible();
  await expect(page.getByText("No tickets yet")).toBeVisible();

  await page.getByRole("button", { name: "New Ticket" }).click();
  await expect(page.getByLabel("Priority")).toHaveValue("medium");
  await page.getByLabel("Subject", { exact: true }).fill("Help");
  await page.getByLabel("Message", { exact: true }).fill("  too short  ");
  await page.getByRole("button", { name: "Create Ticket" }).click();
  await expect(page.getByText("Subject must be at least 5 characters")).toBeVisible();
  await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();
  const su = await superuserClient();
  const mine = () => su.collection("support_tickets").getFullList({ filter: su.filter("user_id = {:id}", { id: customer.id }) });
  expect(await mine()).toHaveLength(0);

  const subject = "Proxy keeps timing out";
  const first = "My German residential proxy times out on every request since this morning.";
  await page.getByLabel("Subject", { exact: true }).fill(subject);
  await page.getByLabel("Priority").selectOption("high");
  await page.getByLabel("Message", { exact: true }).fill(first);
  await page.getByRole("button", { name: "Create Ticket" }).click();

  // Form reset and closed, the list refreshed, the new ticket selected.
  await expect(page.getByRole("button", { name: "Create Ticket" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
  const tickets = await mine();
  expect(tickets).toHaveLength(1);
  const ticket = tickets[0]!;
  expect(ticket).toMatchObject({ subject, priority: "high", status: "open" });
  const stored = await messagesOf(ticket.id);
  expect(stored.map((m) => [m["message"], m["sender_id"], m["is_admin_message"]])).toEqual([[first, customer.id, false]]);

  const item = page.getByTestId("ticket-item");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(subject);
  await expect(item).toContainText(`#${ticket.id.slice(0, 8)}`);
  await expect(item).toContainText("Open");
  await expect(item).toContainText("Priority: High");
  await expect(item).toHaveAttribute("aria-current", "true");
  await expect(page).toHaveURL(new RegExp(`[?&]ticket=${ticket.id}$`));
  const message = thread(page).getByTestId("chat-message");
  await expect(message).toHaveCount(1);
  await expect(message).toContainText(first);
  await expect(message.getByTestId("chat-sender")).toHaveText("You");

  // The same address (the link in staff-reply mails) opens the ticket again.
  await page.reload();
  await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
  await expect(thread(page).getByTestId("chat-message")).toContainText(first);
  await page.getByRole("button", { name: "New Ticket" }).click();
  await expect(page.getByLabel("Subject", { exact: true })).toHaveValue("");
  await expectNoAxeViolations(page);

  // It fits a 360 px screen without scrolling sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalScroll(page);
});

test("switching tickets follows only the open one: no messages of another ticket, no duplicates", async ({ page, browser }) => {
  const customer = await createCustomer();
  const first = await openTicket(customer, "First ticket subject", "The first ticket's opening message.");
  const second = await openTicket(customer, "Second ticket subject", "The second ticket's opening message.");
  await signInAs(page, customer, "/dashboard/support");
  const items = page.getByTestId("ticket-item");
  // Newest first.
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText("Second ticket subject");
  await expect(items.nth(1)).toContainText("First ticket subject");

  // Open the first, then the second, then the first again (subscriptions dropped and renewed).
  for (const subject of ["First ticket subject", "Second ticket subject", "First ticket subject"]) {
    await items.filter({ hasText: subject }).click();
    await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
  }
  await expect(page).toHaveURL(new RegExp(`[?&]ticket=${first}$`));
  await expect(thread(page).getByTestId("chat-message")).toHaveCount(1);

  const staff = await adminPage(browser);
  expect(await replyAsStaff(staff, second, "A reply on the second ticket.")).toBe(200);
  expect(await replyAsStaff(staff, first, "A reply on the first ticket.")).toBe(200);
  await expect(thread(page).getByTestId("chat-message").filter({ hasText: "A reply on the first ticket." })).toHaveCount(1);
  await expect(thread(page).getByText("A reply on the second ticket.")).toHaveCount(0);
  await expect(thread(page).getByTestId("chat-message")).toHaveCount(2);
  await staff.context().close();

  await items.filter({ hasText: "Second ticket subject" }).click();
  await expect(thread(page).getByTestId("chat-message")).toHaveCount(2);
  await expect(thread(page).getByTestId("chat-message").filter({ hasText: "A reply on the second ticket." })).toHaveCount(1);
  await expect(thread(page).getByText("A reply on the first ticket.")).toHaveCount(0);
});

test("a staff reply from another browser arrives live and by e-mail; Enter sends a reply, Shift+Enter does not", async ({
  page,
  browser,
}) => {
  const customer = await createCustomer();
  const subject = "Billing question about renewals";
  const ticketId = await openTicket(customer, subject, "How does auto-renewal charge my balance?");
  // A long thread, so the newest message is only visible when scrolled into view.
  const pb = await clientOf(customer);
  for (let i = 1; i <= 6; i++) {
    await pb
      .collection("chat_messages")
      .create({ ticket_id: ticketId, sender_id: customer.id, message: `Detail ${i}\n${"More context. ".repeat(12)}` });
  }
  await signInAs(page, customer, `/dashboard/support?ticket=${ticketId}`);
  await expect(thread(page).getByTestId("chat-message")).toHaveCount(7);
  await expect(thread(page).getByTestId("chat-message").last()).toBeInViewport();
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });

  const staff = await adminPage(browser);
  const reply = `Auto-renewal debits your balance at expiry (${Date.now()}).`;
  const mailsAfter = Date.now();
  expect(await replyAsStaff(staff, ticketId, reply)).toBe(200);

  const staffMessage = thread(page).getByTestId("chat-message").filter({ hasText: reply });
  await expect(staffMessage).toHaveCount(1);
  await expect(staffMessage.getByTestId("chat-sender")).toHaveText(await staffLabel());
  await expect(staffMessage).toBeInViewport();
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await staff.context().close();

  const mail = await waitForMail(mailbox(), customer.email, new RegExp(`New reply to your ticket #${ticketId.slice(0, 8)}`), {
    after: mailsAfter,
  });
  expect(mail.text).toContain(reply);
  expect(mail.text).toContain(`${E2E.baseUrl}/dashboard/support?ticket=${ticketId}`);

  // Blank is refused, Shift+Enter is a new line, Enter sends.
  const box = messageBox(page);
  await box.fill("   ");
  await box.press("Enter");
  await expect(page.getByText("Type a message before sending")).toBeVisible();
  await box.fill("Thanks, that helps.");
  await box.press("Shift+Enter");
  await box.pressSequentially("One more question: can I turn it off?");
  await expect(box).toHaveValue("Thanks, that helps.\nOne more question: can I turn it off?");
  expect(await messagesOf(ticketId)).toHaveLength(8);
  await box.press("Enter");
  const sent = thread(page).getByTestId("chat-message").filter({ hasText: "One more question" });
  await expect(sent).toHaveCount(1);
  await expect(sent.getByTestId("chat-sender")).toHaveText("You");
  await expect(sent).toBeInViewport();
  await expect(box).toHaveValue("");
  const stored = await messagesOf(ticketId);
  expect(stored).toHaveLength(9);
  expect(stored.at(-1)).toMatchObject({
    message: "Thanks, that helps.\nOne more question: can I turn it off?",
    sender_id: customer.id,
    is_admin_message: false,
  });
  // The answer and its realtime event are one message on screen.
  await expect(thread(page).getByTestId("chat-message")).toHaveCount(9);
});

test("a ticket closed by staff hides the reply box live", async ({ page }) => {
  const customer = await createCustomer();
  const ticketId = await openTicket(customer, "Please close this ticket", "Everything works now, thank you very much.");
  await signInAs(page, customer, `/dashboard/support?ticket=${ticketId}`);
  await expect(messageBox(page)).toBeVisible();
  await expect(page.getByTestId("ticket-status")).toHaveText("Open");

  await (await adminClient()).collection("support_tickets").update(ticketId, { status: "closed" });

  await expect(page.getByText("This ticket is closed.")).toBeVisible();
  await expect(messageBox(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toHaveCount(0);
  await expect(page.getByTestId("ticket-status")).toHaveText("Closed");
  await expect(page.getByTestId("ticket-item")).toContainText("Closed");
  // The server refuses a reply on a closed ticket as well.
  const pb = await clientOf(customer);
  await expect(
    pb.collection("chat_messages").create({ ticket_id: ticketId, sender_id: customer.id, message: "Still there?" }),
  ).rejects.toThrow();
  expect(await messagesOf(ticketId)).toHaveLength(1);
});

test("an attachment is uploaded, opens for its owner, and nobody else can fetch it", async ({ page }) => {
  const customer = await createCustomer();
  const ticketId = await openTicket(customer, "Error page screenshot", "I get an error page when I buy proxies.");
  await signInAs(page, customer, `/dashboard/support?ticket=${ticketId}`);
  const picker = page.getByLabel("Attach files");

  // Other kinds of files are refused in the form.
  await picker.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(page.getByRole("alert")).toContainText("notes.txt: Only PNG, JPEG, GIF or WebP images and PDF files can be attached");
  await expect(page.getByRole("list", { name: "Files to send" })).toHaveCount(0);

  await picker.setInputFiles({ name: "error-page.png", mimeType: "image/png", buffer: PIXEL_PNG });
  await expect(page.getByRole("list", { name: "Files to send" })).toContainText("error-page.png");
  await messageBox(page).fill("Here is the screenshot.");
  await messageBox(page).press("Enter");

  const sent = thread(page).getByTestId("chat-message").filter({ hasText: "Here is the screenshot." });
  await expect(sent).toHaveCount(1);
  await expect(page.getByRole("list", { name: "Files to send" })).toHaveCount(0);
  const stored = (await messagesOf(ticketId)).at(-1)!;
  expect(stored["message"]).toBe("Here is the screenshot.");
  const files = stored["attachments"] as string[];
  expect(files).toHaveLength(1);
  const file = files[0]!;
  expect(file).toMatch(/^error_page_\w{10}\.png$/);

  // The owner opens it (a protected file, with their file token).
  const link = sent.getByRole("link", { name: /error_page\.png/ });
  await expect(link).toHaveAttribute("target", "_blank");
  // Its thumbnail loaded too.
  await expect.poll(() => sent.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  const opened = page.context().waitForEvent("response", (r) => r.url().includes(`/${file}?`) && !r.url().includes("thumb="));
  const [popup] = await Promise.all([page.waitForEvent("popup"), link.click()]);
  const response = await opened;
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/png");
  await popup.close();

  // Another customer cannot fetch it, not even with their own file token.
  const url = `${E2E.baseUrl}/api/files/chat_messages/${stored.id}/${file}`;
  const other = await clientOf(await createCustomer());
  const otherToken = await other.files.getToken();
  expect((await fetch(`${url}?token=${otherToken}`)).status).toBe(404);
  expect((await fetch(url)).status).toBe(404);
  const ownerToken = await (await clientOf(customer)).files.getToken();
  expect((await fetch(`${url}?token=${ownerToken}`)).status).toBe(200);
});
