// What the support specs share (the customer's /dashboard/support and the console's
// inbox): tickets opened through the route the page uses, the stored thread, the staff
// label, a staff member in a browser of their own, and the ticket thread's reply box.
import { expect, type Browser, type Locator, type Page } from "@playwright/test";
import { createTestUser } from "../../support/pocketbase.ts";
import { signInAs, uniqueEmail, userClient } from "./customers.ts";
import { superuserClient } from "./pocketbase.ts";

/** Opens a ticket through the route the page uses; returns its id. */
export async function openTicket(
  user: { email: string; password: string },
  subject: string,
  message: string,
  priority = "medium",
): Promise<string> {
  const pb = await userClient(user);
  const res = await pb.send<{ ticket: { id: string } }>("/api/v1/support/tickets", {
    method: "POST",
    body: { subject, message, priority },
  });
  return res.ticket.id;
}

export async function messagesOf(ticketId: string) {
  const su = await superuserClient();
  return su.collection("chat_messages").getFullList({ filter: su.filter("ticket_id = {:ticketId}", { ticketId }), sort: "created" });
}

/** What staff replies are labelled with: the default_support_name setting, or "Support". */
export async function staffLabel(): Promise<string> {
  const su = await superuserClient();
  const rows = await su.collection("settings").getFullList({ filter: 'key = "default_support_name"' });
  return String(rows[0]?.["value"] ?? "").trim() || "Support";
}

/** An admin signed in through /login in a browser context of their own. */
export async function adminPage(browser: Browser): Promise<Page> {
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
export async function replyAsStaff(page: Page, ticketId: string, message: string): Promise<number> {
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

export const messageBox = (page: Page) => page.getByRole("textbox", { name: "Your message" });
export const thread = (page: Page) => page.getByRole("log", { name: "Messages" });

/**
 * In a ticket's reply box: a blank reply is refused on Enter; then `first`, Shift+Enter
 * (a new line, nothing sent) and `second` are typed. Answers the box, not sent yet.
 */
export async function typeTwoLineReply(page: Page, first: string, second: string): Promise<Locator> {
  const box = messageBox(page);
  await box.fill("   ");
  await box.press("Enter");
  await expect(page.getByText("Type a message before sending")).toBeVisible();
  await box.fill(first);
  await box.press("Shift+Enter");
  await box.pressSequentially(second);
  return box;
}
