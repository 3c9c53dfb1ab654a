// Support (spec 2.18, 4, 5) end to end in Chromium against the real shop, a ticket's
// conversation: a staff reply from a second browser arriving live (and by e-mail), Enter
// and Shift+Enter in the reply box, and protected attachments. Opening, switching and
// closing tickets is support.spec.ts.
import { expect, test } from "@playwright/test";
import { waitForMail } from "../support/smtp-sink.ts";
import { createCustomer, signInAs, userClient } from "./support/customers.ts";
import { E2E } from "./support/env.ts";
import { mailbox } from "./support/mailbox.ts";
import {
  adminPage,
  messageBox,
  messagesOf,
  openTicket,
  replyAsStaff,
  staffLabel,
  thread,
  typeTwoLineReply,
} from "./support/support-tickets.ts";

// A 1x1 PNG.
const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

test.describe.configure({ timeout: 60_000 });

test("a staff reply from another browser arrives live and by e-mail; Enter sends a reply, Shift+Enter does not", async ({
  page,
  browser,
}) => {
  const customer = await createCustomer();
  const subject = "Billing question about renewals";
  const ticketId = await openTicket(customer, subject, "How does auto-renewal charge my balance?");
  // A long thread, so the newest message is only visible when scrolled into view.
  const pb = await userClient(customer);
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
  const box = await typeTwoLineReply(page, "Thanks, that helps.", "One more question: can I turn it off?");
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
  const other = await userClient(await createCustomer());
  const otherToken = await other.files.getToken();
  expect((await fetch(`${url}?token=${otherToken}`)).status).toBe(404);
  expect((await fetch(url)).status).toBe(404);
  const ownerToken = await (await userClient(customer)).files.getToken();
  expect((await fetch(`${url}?token=${ownerToken}`)).status).toBe(200);
});
