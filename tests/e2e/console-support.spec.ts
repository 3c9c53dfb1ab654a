// Console Support Tickets (admin spec "Support Tickets") in Chromium against the real shop:
// a customer's new ticket shows up live in the admin's inbox, the admin's reply reaches
// the customer's open ticket page live (a second browser context), the status changes
// (and the customer sees it), search, the status and priority filters, empty states, axe and 360 px.
import { expect, test, type Page } from "@playwright/test";
import { createAdmin, createCustomer, open, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { messageBox, openTicket, staffLabel, thread, typeTwoLineReply } from "./support/support-tickets.ts";

test.describe.configure({ timeout: 90_000 });

let seq = 0;
const unique = (label: string) => `${label} ${Date.now().toString(36)}${seq++}`;

const inboxItems = (page: Page) => page.getByTestId("admin-ticket-item");
const search = (page: Page) => page.getByRole("searchbox", { name: "Search tickets" });

test("a new ticket appears live, the reply reaches the customer live, and the status changes", async ({ page, browser }) => {
  const admin = await createAdmin("Morgan");
  const customer = await createCustomer({ firstName: "Riley" });
  const tag = unique("Live");
  await signInAs(page, admin, "/console/support");
  await expect(page.getByRole("heading", { name: "Support Tickets", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Select a Ticket" })).toBeVisible();
  await search(page).fill(tag);
  await expect(page.getByText("No tickets found")).toBeVisible();

  // The customer opens a ticket in their own browser: it shows up in the admin's list live.
  const customerContext = await browser.newContext();
  const customerPage = await customerContext.newPage();
  await signInAs(customerPage, customer, "/dashboard/support");
  await customerPage.getByRole("button", { name: "New Ticket" }).click();
  const subject = `${tag} cannot connect`;
  await customerPage.getByLabel("Subject", { exact: true }).fill(subject);
  await customerPage.getByLabel("Priority").selectOption("urgent");
  await customerPage.getByLabel("Message", { exact: true }).fill("My proxies time out since this morning.");
  await customerPage.getByRole("button", { name: "Create Ticket" }).click();
  await expect(customerPage.getByRole("heading", { name: subject, level: 2 })).toBeVisible();

  const item = inboxItems(page).filter({ hasText: subject });
  await expect(item).toHaveCount(1, { timeout: 15_000 });
  await expect(item).toContainText("Open");
  await expect(item).toContainText("Riley Customer");
  await expect(item).toContainText("(awaiting reply)");

  // Open it: subject, customer, priority, the customer's message.
  // The live inbox may still be re-sorting after the new ticket's events: click until it opens.
  await expect(async () => {
    await item.click();
    await expect(page).toHaveURL(/[?&]ticket=/, { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
  await expect(page.getByTestId("ticket-customer")).toHaveText("Riley Customer");
  await expect(page.getByRole("link", { name: customer.email })).toBeVisible();
  await expect(page.getByTestId("ticket-priority")).toHaveText("Urgent priority");
  const first = thread(page).getByTestId("chat-message");
  await expect(first).toHaveCount(1);
  await expect(first.getByTestId("chat-sender")).toHaveText("Riley Customer");

  // A blank reply is refused; Shift+Enter makes a new line; Enter sends.
  const box = await typeTwoLineReply(page, "Thanks for the report.", "We are looking into it.");
  await box.press("Enter");
  const reply = thread(page).getByTestId("chat-message").filter({ hasText: "We are looking into it." });
  await expect(reply).toHaveCount(1);
  await expect(reply.getByTestId("chat-sender")).toHaveText(await staffLabel());
  await expect(box).toHaveValue("");

  // The customer's open page gets it live, labelled with the support name.
  const customerReply = thread(customerPage).getByTestId("chat-message").filter({ hasText: "We are looking into it." });
  await expect(customerReply).toHaveCount(1, { timeout: 15_000 });
  await expect(customerReply).toContainText("Thanks for the report.\nWe are looking into it.");
  await expect(customerReply.getByTestId("chat-sender")).toHaveText(await staffLabel());
  const su = await superuserClient();
  const ticketId = new URL(page.url()).searchParams.get("ticket")!;
  const stored = await su
    .collection("chat_messages")
    .getFullList({ filter: su.filter("ticket_id = {:id}", { id: ticketId }), sort: "created" });
  expect(stored.map((m) => m["is_admin_message"])).toEqual([false, true]);
  await expect(item).not.toContainText("(awaiting reply)");

  // The customer answers: it arrives live in the admin's open ticket.
  await messageBox(customerPage).fill("Still broken on port 8080.");
  await messageBox(customerPage).press("Enter");
  await expect(thread(page).getByText("Still broken on port 8080.")).toBeVisible({ timeout: 15_000 });
  await expect(thread(page).getByTestId("chat-message").last()).toBeInViewport();

  // Status: Pending, then Closed; the list, the server, the audit log and the customer follow.
  const status = page.getByLabel("Ticket status");
  await status.selectOption("pending");
  await expect(page.getByTestId("ticket-status")).toHaveText("Pending");
  await expect(item).toContainText("Pending");
  await status.selectOption("closed");
  await expect(page.getByTestId("ticket-status")).toHaveText("Closed");
  await expect.poll(async () => (await su.collection("support_tickets").getOne(ticketId))["status"]).toBe("closed");
  const audit = await su
    .collection("audit_logs")
    .getFullList({ filter: su.filter("target_id = {:id}", { id: ticketId }), sort: "created" });
  expect(audit.map((a) => [a["action"], (a["details"] as { changes?: { status?: { to: string } } }).changes?.status?.to])).toEqual([
    ["support_tickets.update", "pending"],
    ["support_tickets.update", "closed"],
  ]);
  await expect(customerPage.getByText("This ticket is closed.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("the customer can read your reply but cannot answer")).toBeVisible();

  // The status filter keeps only closed tickets; Open no longer lists it.
  await page.getByLabel("Status", { exact: true }).selectOption("open");
  await expect(page.getByText("No tickets found")).toBeVisible();
  await page.getByLabel("Status", { exact: true }).selectOption("closed");
  await expect(inboxItems(page).filter({ hasText: subject })).toHaveCount(1);

  await customerContext.close();
});

test("search finds tickets by customer e-mail and name; the page passes axe and fits 360 px", async ({ page }) => {
  const admin = await createAdmin();
  const customer = await createCustomer({ firstName: "Quinn" });
  const subject = unique("Invoice copy");
  await openTicket(customer, subject, "Please send me an invoice copy.", "low");

  const urgent = unique("Proxies down");
  await openTicket(customer, urgent, "None of my proxies connect since this morning.", "urgent");

  await signInAs(page, admin, "/console/support");
  await search(page).fill(customer.email);
  await expect(inboxItems(page)).toHaveCount(2);
  // Each row shows its priority; the inbox sorts and filters by it (issue #28, 17).
  await expect(inboxItems(page).first()).toContainText(urgent);
  await expect(inboxItems(page).first().getByTestId("inbox-priority")).toHaveText("Urgent");
  await expect(inboxItems(page).last().getByTestId("inbox-priority")).toHaveText("Low");
  await page.getByLabel("Priority", { exact: true }).selectOption("low");
  await expect(inboxItems(page)).toHaveCount(1);
  await expect(inboxItems(page)).toContainText(subject);
  await expect(inboxItems(page)).toContainText("Quinn Customer");
  await inboxItems(page).click();
  await expect(page.getByTestId("ticket-priority")).toHaveText("Low priority");
  await expectNoAxeViolations(page);

  // Deep link to the ticket on a phone.
  await page.setViewportSize({ width: 360, height: 800 });
  await open(page, page.url());
  await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
  await expect(thread(page).getByTestId("chat-message")).toHaveCount(1);
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
});
