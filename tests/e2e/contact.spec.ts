// The contact form: validation on submit, a real stored message, and the failure paths.
// It is server-rendered HTML with a small script (src/features/contact/ContactForm.astro,
// enhance.ts): the form is there without JavaScript, its button waits for the script,
// nothing typed early is lost, and the PocketBase SDK never loads.
import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env.ts";
import { superuserClient } from "./support/pocketbase.ts";

const CREATE_URL = "**/api/collections/contact_messages/records*";

async function fill(page: Page, values: { name: string; email: string; subject: string; message: string; type?: string }) {
  await page.getByLabel("Name", { exact: true }).fill(values.name);
  await page.getByLabel("Email", { exact: true }).fill(values.email);
  if (values.type) await page.getByLabel("Topic").selectOption(values.type);
  await page.getByLabel("Subject", { exact: true }).fill(values.subject);
  await page.getByLabel("Message", { exact: true }).fill(values.message);
}

/** The message a test sends, valid for the schema. */
const VALID = {
  name: "Grace Hopper",
  email: "grace@example.com",
  subject: "Quick question",
  message: "How fast can you deliver 100 proxies?",
};

test.beforeEach(async ({ page }) => {
  await page.goto("/contact");
  // The submit button is disabled in the HTML until the form's script has run.
  await expect(page.getByRole("button", { name: "Send Message" })).toBeEnabled();
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
  // The sent screen replaces the form inside a live region, its heading focused.
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeFocused();
  await expect(page.locator("[aria-live=polite]").filter({ has: page.getByRole("heading", { name: "Message Sent!" }) })).toContainText(
    "Thank you for reaching out. Our team will get back to you within 2-4 hours during business hours.",
  );
  await expect(page.getByLabel("Name", { exact: true })).toBeHidden();

  const pb = await superuserClient();
  const row = await pb.collection("contact_messages").getFirstListItem(pb.filter("subject = {:subject}", { subject }));
  expect(row).toMatchObject({ name: "Grace Hopper", email: "grace@example.com", type: "billing" });
  await pb.collection("contact_messages").delete(row.id);

  await page.getByRole("button", { name: "Send Another Message" }).click();
  for (const label of ["Name", "Email", "Subject", "Message"]) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue("");
  }
  await expect(page.getByLabel("Topic")).toHaveValue("general");
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toHaveCount(0);
  // A fresh form: no messages while typing until the next attempt.
  await page.getByLabel("Name", { exact: true }).fill("G");
  await expect(page.getByText("Name must be at least 2 characters")).toBeHidden();
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

test("after a first attempt the messages follow the edits", async ({ page }) => {
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Name must be at least 2 characters")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
  await page.getByLabel("Name", { exact: true }).fill(VALID.name);
  await expect(page.getByText("Name must be at least 2 characters")).toBeHidden();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "false");
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill("grace@");
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(VALID.email);
  await expect(page.getByText("Invalid email address")).toBeHidden();
});

test("PocketBase's field messages show under their fields and its message in the banner", async ({ page }) => {
  await page.route(CREATE_URL, (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        status: 400,
        message: "Failed to create record.",
        data: { email: { code: "validation_is_email", message: "Must be a valid email address." } },
      }),
    }),
  );
  await fill(page, VALID);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("alert")).toHaveText("Failed to create record.");
  const email = page.getByLabel("Email", { exact: true });
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription("Must be a valid email address");
  await expect(email).toBeFocused();
  await expect(page.getByLabel("Subject", { exact: true })).toHaveValue(VALID.subject);
});

test("an unreachable server or an answer that is not PocketBase's says so and keeps the input", async ({ page }) => {
  let answer: "abort" | "html" = "abort";
  await page.route(CREATE_URL, (route) =>
    answer === "abort"
      ? route.abort("connectionrefused")
      : route.fulfill({ status: 502, contentType: "text/html", body: "<html><body>Bad gateway</body></html>" }),
  );
  await fill(page, VALID);
  const send = page.getByRole("button", { name: "Send Message" });
  await send.click();
  await expect(page.getByRole("alert")).toHaveText("Cannot reach the server. Check your connection and try again.");
  await expect(send).toBeEnabled();
  await expect(send).toBeFocused();
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue(VALID.message);

  answer = "html";
  await send.click();
  await expect(page.getByRole("alert")).toHaveText("An unexpected error occurred");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(VALID.name);
});

test("what is typed before the script arrives is kept and sent, trimmed, as JSON; an early Enter sends nothing", async ({ page }) => {
  // Hold the page's scripts back until the form is filled.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const bodies: unknown[] = [];
  const types: (string | undefined)[] = [];
  await page.route(CREATE_URL, async (route) => {
    bodies.push(route.request().postDataJSON());
    types.push(route.request().headers()["content-type"]);
    await route.fulfill({ status: 200, contentType: "application/json", body: "{}" });
  });
  const native: string[] = [];
  page.on("request", (req) => {
    if (req.isNavigationRequest() && req.method() !== "GET") native.push(`${req.method()} ${req.url()}`);
  });

  // A link preselects the topic, but a topic chosen before the script arrives wins.
  await page.goto("/contact?type=partnership", { waitUntil: "commit" });
  await expect(page.getByLabel("Name", { exact: true })).toBeVisible();
  await fill(page, { ...VALID, name: `  ${VALID.name}  `, type: "technical" });
  await expect(page.getByRole("button", { name: "Send Message" })).toBeDisabled();
  await page.getByLabel("Subject", { exact: true }).press("Enter");
  release();
  await expect(page.getByRole("button", { name: "Send Message" })).toBeEnabled();
  await expect(page.getByLabel("Topic")).toHaveValue("technical");
  expect(native).toEqual([]);
  expect(bodies).toEqual([]);

  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
  expect(bodies).toEqual([{ ...VALID, type: "technical" }]);
  expect(types).toEqual(["application/json"]);
  expect(native).toEqual([]);
});

test("without JavaScript the form is on the page, its button held back, with the e-mail offered instead", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: E2E.baseUrl, javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto("/contact");
    const form = page.locator("form#contact-message-form");
    for (const label of ["Name", "Email", "Subject", "Message"]) await expect(form.getByLabel(label, { exact: true })).toBeVisible();
    await expect(form.getByLabel("Topic").locator("option")).toHaveText([
      "General inquiry",
      "Technical support",
      "Billing question",
      "Partnership",
    ]);
    await expect(form.getByLabel("Topic")).toHaveValue("general");
    await expect(form.getByRole("button", { name: "Send Message" })).toBeDisabled();
    // (Playwright's text search skips <noscript>; without JavaScript its content is real markup.)
    const note = form.locator("noscript p");
    await expect(note).toBeVisible();
    await expect(note).toContainText("This form needs JavaScript. You can also e-mail us at");
    await expect(note.getByRole("link")).toHaveAttribute("href", /^mailto:.+@/);
  } finally {
    await context.close();
  }
});
