// A lost race for the last proxy of a city (issue #15): someone else buys it between the
// page's load and the customer's click. The refusal charges nothing, the form keeps the
// customer's city (now out of stock, so Purchase stays disabled for it) and only the
// customer's own change of city enables Purchase again.
import { expect, test } from "@playwright/test";
import { addStock, createCustomer, ledgerOf, signInAs, userClient } from "./support/customers.ts";

test.describe.configure({ timeout: 60_000 });

test("after a lost race the chosen city stays chosen, out of stock, until the customer changes it", async ({ page }) => {
  const here = `R${Date.now().toString(36).slice(-5).toUpperCase()}`;
  await addStock({ type: "RESIDENTIAL", country: here, state: "Bavaria", city: "Munich", count: 1 });
  await addStock({ type: "RESIDENTIAL", country: here, state: "Bavaria", city: "Nuremberg", count: 2 });
  const customer = await createCustomer({ balanceCents: 10_000 });
  const rival = await createCustomer({ balanceCents: 10_000 });

  await signInAs(page, customer, "/dashboard/buy-proxies");
  const country = page.getByLabel("Country", { exact: true });
  const state = page.getByLabel("State (optional)");
  const city = page.getByLabel("City (optional)");
  const purchase = page.getByRole("button", { name: "Purchase", exact: true });
  await country.selectOption(here);
  await state.selectOption("Bavaria");
  await city.selectOption("Munich");
  await expect(purchase).toBeEnabled();

  // Someone else buys Munich's last proxy through the API meanwhile.
  const rivalPb = await userClient(rival);
  await rivalPb.send("/api/v1/proxies/purchase", {
    method: "POST",
    body: { type: "RESIDENTIAL", country: here, state: "Bavaria", city: "Munich", quantity: 1 },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });

  await purchase.click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Nothing was charged.");
  // The city stays the customer's choice, with its new stock, and Purchase stays off for it.
  await expect(city.locator("option", { hasText: "Nuremberg (2 available)" })).toHaveCount(1);
  await expect(city).toHaveValue("Munich");
  await expect(city.locator("option:checked")).toHaveText("Munich (0 available)");
  await expect(page.getByTestId("order-summary")).toContainText(`${here} / Bavaria / Munich`);
  await expect(page.getByTestId("stock-short")).toHaveText(`${here} / Bavaria / Munich is out of stock; choose another location.`);
  await expect(purchase).toBeDisabled();
  expect(await ledgerOf(customer.id)).toEqual({ balance: 10_000, sum: 10_000 });

  // The customer changes the city themselves: Purchase comes back for the new choice.
  await city.selectOption("Nuremberg");
  await expect(page.getByTestId("order-summary")).toContainText(`${here} / Bavaria / Nuremberg`);
  await expect(purchase).toBeEnabled();
});
