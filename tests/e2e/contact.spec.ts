// The contact form: validation on submit, a real stored message, and the failure path.
import { expect, test, type Page } from "@playwright/test";
import { superuserClient } from "./support/pocketbase.ts";

const CREATE_URL = "**/api/collections/contact_messages/records*";

async function fill(page: Page, values: { name: string; email: string; subject: string; message: string; type?: string }) {
  await page.getByLabel("Name", { exact: true }).fill(values.name);
  await page.getByLabel("Email", { exact: true }).fill(values.email);
  if (values.type) await page.getByLabel("Topic").selectOption(values.type);
  await page.getByLabel("Subject", { exact: true }).fill(values.subject);
  await page.getByLabel("Message", { exact: true }).fill(values.message);
}

test.beforeEach(async ({ page }) => {
  await page.goto("/contact");
  // The island is hydrated once its button reacts; wait for astro-island to lose ssr.
  await expect(page.locator("astro-island")).not.toHaveAttribute("ssr", "");
});

test("an empty or invalid form shows the four messages under their fields and sends nothing", async ({ page }) => {
  let requests = 0;
  await page.route(CREATE_URL, (route) => {
    requests++;
    return route.continue();
  });
  await page.getByRole("button", { name: "Send Message" }).click();
  const expected = {
    Name: "Name must be at least 2 characters",
    Email: "Invalid email address",
    Subject: "Subject must be at least 5 characters",
    Message: "Message must be at least 20 characters",
  };
  for (const [label, message] of Object.entries(expected)) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(message);
    await expect(page.getByText(message)).toHaveClass(/text-red-/);
  }

  await fill(page, { name: "A", email: "nope", subject: "Hi", message: "Too short" });
  await page.getByRole("button", { name: "Send Message" }).click();
  for (const message of Object.values(expected)) await expect(page.getByText(message)).toBeVisible();
  expect(requests).toBe(0);
});

test("a valid message is stored, Message Sent! shows, and Send Another Message returns to an empty form", async ({ page }) => {
  const subject = `Volume pricing ${Date.now()}`;
  await fill(page, {
    name: "Grace Hopper",
    email: "grace@example.com",
    subject,
    message: "We would like a quote for 500 residential proxies in Germany.",
    type: "billing",
  });
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();

  const pb = await superuserClient();
  const row = await pb.collection("contact_messages").getFirstListItem(pb.filter("subject = {:subject}", { subject }));
  expect(row).toMatchObject({ name: "Grace Hopper", email: "grace@example.com", type: "billing" });
  await pb.collection("contact_messages").delete(row.id);

  await page.getByRole("button", { name: "Send Another Message" }).click();
  for (const label of ["Name", "Email", "Subject", "Message"]) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue("");
  }
  await expect(page.getByLabel("Topic")).toHaveValue("general");
});

test("while sending, the button reads Sending... and is disabled", async ({ page }) => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(CREATE_URL, async (route) => {
    await gate;
    await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ id: "x" }) });
  });
  await fill(page, {
    name: "Grace Hopper",
    email: "grace@example.com",
    subject: "Quick question",
    message: "How fast can you deliver 100 proxies?",
  });
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("button", { name: "Sending..." })).toBeDisabled();
  release();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
});

test("a refused message shows the server's message (rate limit included) and keeps the input", async ({ page }) => {
  await page.route(CREATE_URL, (route) =>
    route.fulfill({
      status: 429,
      contentType: "application/json",
      body: JSON.stringify({ status: 429, message: "Too Many Requests.", data: {} }),
    }),
  );
  const values = {
    name: "Grace Hopper",
    email: "grace@example.com",
    subject: "Quick question",
    message: "How fast can you deliver 100 proxies?",
  };
  await fill(page, values);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("alert")).toHaveText("Too Many Requests.");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(values.name);
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue(values.message);
  await expect(page.getByRole("button", { name: "Send Message" })).toBeEnabled();
});
