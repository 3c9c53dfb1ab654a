// The console's contact inbox: a message sent through /contact appears (live), opens,
// becomes read (server and screen), can be marked unread again, the Unread filter and the
// count follow, and "Reply by e-mail" is a correct mailto: link; axe and 360 px.
import { expect, test } from "@playwright/test";
import { createAdmin, open, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";

test.describe.configure({ timeout: 90_000 });

test("a contact-form message appears, opens, becomes read and can be answered by e-mail", async ({ page, browser }) => {
  const admin = await createAdmin();
  const su = await superuserClient();
  const subject = `Bulk pricing & "plans"? ${Date.now().toString(36)}`;
  await signInAs(page, admin, "/console/messages");
  await expect(page.getByRole("heading", { name: "Contact Messages", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Select a Message" })).toBeVisible();
  const count = page.getByTestId("unread-count");
  await expect(count).toHaveText(/^\d+ unread$/);
  const unreadBefore = Number((await count.textContent())!.split(" ")[0]);

  // A visitor sends the contact form in another browser: it shows up live, unread.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await open(visitor, "/contact");
  await visitor.getByLabel("Name", { exact: true }).fill("Jordan Visitor");
  await visitor.getByLabel("Email", { exact: true }).fill("jordan+shop@example.com");
  await visitor.getByLabel("Subject", { exact: true }).fill(subject);
  await visitor.getByLabel("Message", { exact: true }).fill("We need 500 residential proxies a month. Do you offer volume pricing?");
  await visitor.getByRole("button", { name: /send/i }).click();
  await expect
    .poll(async () => (await su.collection("contact_messages").getFullList({ filter: su.filter("subject = {:s}", { s: subject }) })).length)
    .toBe(1);
  await visitorContext.close();

  const item = page.getByTestId("contact-item").filter({ hasText: subject });
  await expect(item).toHaveCount(1, { timeout: 15_000 });
  await expect(item).toContainText("(unread)");
  await expect(item).toContainText("Jordan Visitor");
  await expect(count).toHaveText(`${unreadBefore + 1} unread`);

  // Unread filter lists it.
  await page.getByRole("button", { name: "Unread", exact: true }).click();
  await expect(page.getByRole("button", { name: "Unread", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(item).toHaveCount(1);

  // Open: the whole message, marked read on the server and on screen.
  await item.click();
  const message = page.getByTestId("contact-message");
  await expect(message.getByRole("heading", { name: subject })).toBeVisible();
  await expect(message).toContainText("We need 500 residential proxies a month. Do you offer volume pricing?");
  await expect(message).toContainText("jordan+shop@example.com");
  await expect(message.getByTestId("read-state")).toHaveText("Read");
  await expect(item).not.toContainText("(unread)");
  await expect(count).toHaveText(`${unreadBefore} unread`);
  const stored = await su.collection("contact_messages").getFirstListItem(su.filter("subject = {:s}", { s: subject }));
  expect(stored["read_at"]).not.toBe("");
  const audit = await su.collection("audit_logs").getFullList({ filter: su.filter("target_id = {:id}", { id: stored.id }) });
  expect(audit.map((a) => a["action"])).toEqual(["contact_messages.update"]);

  // Reply by e-mail: the sender, "Re: <subject>", everything encoded.
  const reply = message.getByRole("link", { name: "Reply by e-mail" });
  await expect(reply).toHaveAttribute("href", `mailto:jordan%2Bshop@example.com?subject=${encodeURIComponent(`Re: ${subject}`)}`);
  const href = (await reply.getAttribute("href"))!;
  expect(new URL(href).searchParams.get("subject")).toBe(`Re: ${subject}`);
  await expectNoAxeViolations(page);

  // Mark as unread again.
  await message.getByRole("button", { name: "Mark as unread" }).click();
  await expect(message.getByTestId("read-state")).toHaveText("Unread");
  await expect(count).toHaveText(`${unreadBefore + 1} unread`);
  await expect.poll(async () => (await su.collection("contact_messages").getOne(stored.id))["read_at"]).toBe("");

  // After a reload the Unread view still lists it; All lists it too.
  await page.reload();
  await page.getByRole("button", { name: "Unread", exact: true }).click();
  await expect(page.getByTestId("contact-item").filter({ hasText: subject })).toContainText("(unread)");
  await page.getByRole("button", { name: "All", exact: true }).click();
  await expect(page.getByTestId("contact-item").filter({ hasText: subject })).toHaveCount(1);
});

test("the inbox fits a 360 px screen and passes axe with a message open", async ({ page }) => {
  const admin = await createAdmin();
  const su = await superuserClient();
  const subject = `Narrow screen ${Date.now().toString(36)}`;
  await su.collection("contact_messages").create({
    name: "Pat Example",
    email: "pat.with.a.rather.long.address@subdomain.example.com",
    subject,
    message: "A message long enough to wrap on a small screen without any sideways scrolling at all.",
    type: "technical",
  });
  await page.setViewportSize({ width: 360, height: 800 });
  await signInAs(page, admin, "/console/messages");
  await page.getByTestId("contact-item").filter({ hasText: subject }).click();
  await expect(page.getByTestId("contact-message")).toContainText("Technical support");
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
});
