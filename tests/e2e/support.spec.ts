// Support (spec 2.18, 4, 5) end to end in Chromium against the real shop, the tickets: a
// new ticket with the form's messages, switching between tickets (each follows only its
// own thread), and a ticket closed by staff live. The conversation (a live staff reply,
// its e-mail, Enter / Shift+Enter, attachments) is support-messages.spec.ts.
import { expect, test } from "@playwright/test";
import { adminClient, createCustomer, signInAs, userClient } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { adminPage, messageBox, messagesOf, openTicket, replyAsStaff, thread } from "./support/support-tickets.ts";

test.describe.configure({ timeout: 60_000 });

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
  const pb = await userClient(customer);
  await expect(
    pb.collection("chat_messages").create({ ticket_id: ticketId, sender_id: customer.id, message: "Still there?" }),
  ).rejects.toThrow();
  expect(await messagesOf(ticketId)).toHaveLength(1);
});
