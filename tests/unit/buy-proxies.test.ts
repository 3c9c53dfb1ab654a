import { describe, expect, it } from "vitest";
import {
  availableAt,
  cityOptions,
  countryOptions,
  optionLabel,
  placeLabel,
  reconcilePlace,
  stateOptions,
  withChosen,
  type StockLocation,
} from "@/features/buy-proxies/locations";
import { parseQuantity, purchaseErrors, type ProxyPurchaseInput } from "@/features/buy-proxies/schemas";
import { keyForAttempt, orderSummary } from "@/features/buy-proxies/summary";

const STOCK: StockLocation[] = [
  { country: "DE", country_name: "Germany", state: "", city: "", available: 2 },
  { country: "DE", country_name: "Germany", state: "Berlin", city: "", available: 3 },
  { country: "US", country_name: "United States", state: "", city: "", available: 4 },
  { country: "US", state: "California", city: "", available: 5 },
  { country: "US", state: "California", city: "Los Angeles", available: 7 },
  { country: "US", state: "California", city: "San Diego", available: 1 },
  { country: "US", state: "Texas", city: "Austin", available: 10 },
  { country: "FR", state: "", city: "", available: 0 },
  // A stored code that is not an ISO country has no name: it shows as it is.
  { country: "X1", state: "", city: "", available: 1 },
  { country: "AT", country_name: "Austria", state: "", city: "", available: 1 },
];

describe("location choices from live stock", () => {
  it("offers only countries with stock, with their totals, by name", () => {
    expect(countryOptions(STOCK)).toEqual([
      { value: "AT", name: "Austria", available: 1 },
      { value: "DE", name: "Germany", available: 5 },
      { value: "US", name: "United States", available: 27 },
      { value: "X1", name: "X1", available: 1 },
    ]);
    expect(optionLabel({ value: "US", name: "United States", available: 27 })).toBe("United States (27 available)");
    expect(optionLabel({ value: "X1", available: 1 })).toBe("X1 (1 available)");
  });

  it("names the place by its country's name, and keeps a chosen country out of stock under its name", () => {
    const names = new Map([["NO", "Norway"]]);
    expect(placeLabel({ country: "NO", state: "Oslo", city: "" }, names)).toBe("Norway / Oslo");
    expect(placeLabel({ country: "X1", state: "", city: "" }, names)).toBe("X1");
    expect(withChosen(countryOptions(STOCK), "NO", "Norway").map((o) => o.name)).toEqual([
      "Austria",
      "Germany",
      "Norway",
      "United States",
      "X1",
    ]);
  });

  it("offers the states of the chosen country and the cities of the chosen state", () => {
    expect(stateOptions(STOCK, "")).toEqual([]);
    expect(stateOptions(STOCK, "US")).toEqual([
      { value: "California", available: 13 },
      { value: "Texas", available: 10 },
    ]);
    expect(cityOptions(STOCK, "US", "")).toEqual([]);
    expect(cityOptions(STOCK, "US", "California")).toEqual([
      { value: "Los Angeles", available: 7 },
      { value: "San Diego", available: 1 },
    ]);
  });

  it("counts what the server would find for a place", () => {
    expect(availableAt(STOCK, { country: "", state: "", city: "" })).toBe(0);
    expect(availableAt(STOCK, { country: "US", state: "", city: "" })).toBe(27);
    expect(availableAt(STOCK, { country: "US", state: "California", city: "" })).toBe(13);
    expect(availableAt(STOCK, { country: "US", state: "California", city: "San Diego" })).toBe(1);
    expect(availableAt(STOCK, { country: "FR", state: "", city: "" })).toBe(0);
  });

  it("keeps only the part of a place the stock still offers", () => {
    const place = { country: "US", state: "California", city: "San Diego" };
    expect(reconcilePlace(STOCK, place)).toEqual(place);
    const soldOut = STOCK.filter((l) => l.city !== "San Diego");
    expect(reconcilePlace(soldOut, place)).toEqual({ country: "US", state: "California", city: "" });
    expect(reconcilePlace(STOCK, { country: "US", state: "Ohio", city: "Columbus" })).toEqual({ country: "US", state: "", city: "" });
    expect(reconcilePlace(STOCK, { country: "FR", state: "", city: "" })).toEqual({ country: "", state: "", city: "" });
  });
});

describe("purchase form messages (spec section 5)", () => {
  const valid: ProxyPurchaseInput = { type: "RESIDENTIAL", country: "US", state: "", city: "", quantity: "3" };

  it("accepts a complete order", () => {
    expect(purchaseErrors(valid)).toEqual({});
    expect(parseQuantity("3")).toBe(3);
  });

  it("uses the exact texts", () => {
    expect(purchaseErrors({ ...valid, country: "" }).country).toBe("Country is required");
    expect(purchaseErrors({ ...valid, quantity: "0" }).quantity).toBe("Quantity must be at least 1");
    expect(purchaseErrors({ ...valid, quantity: "" }).quantity).toBe("Quantity must be at least 1");
    expect(purchaseErrors({ ...valid, quantity: "101" }).quantity).toBe("Maximum 100 proxies per purchase");
    expect(purchaseErrors({ ...valid, quantity: "2.5" }).quantity).toBe("Quantity must be a whole number");
    expect(parseQuantity("100")).toBe(100);
    expect(parseQuantity("101")).toBeNull();
  });
});

describe("order summary and balance check", () => {
  const base = { unitPriceCents: 450, quantity: 3, balanceCents: 10_000, available: 27, processing: false };

  it("totals and allows a covered order", () => {
    const s = orderSummary(base);
    expect(s.totalCents).toBe(1350);
    expect(s.canPurchase).toBe(true);
    expect(s.shortfallText).toBe("");
    expect(s.zeroBalance).toBe(false);
  });

  it("names the shortfall and disables Purchase when the balance is short", () => {
    const s = orderSummary({ ...base, balanceCents: 1000 });
    expect(s.shortfallCents).toBe(350);
    expect(s.shortfallText).toBe("Insufficient balance. Need $3.50 more.");
    expect(s.canPurchase).toBe(false);
  });

  it("flags a zero balance", () => {
    const s = orderSummary({ ...base, balanceCents: 0 });
    expect(s.zeroBalance).toBe(true);
    expect(s.shortfallText).toBe("Insufficient balance. Need $13.50 more.");
    expect(s.canPurchase).toBe(false);
  });

  it("disables Purchase for a zero total, while processing, while the balance loads, or when stock is short", () => {
    expect(orderSummary({ ...base, quantity: null }).canPurchase).toBe(false);
    expect(orderSummary({ ...base, unitPriceCents: 0 }).canPurchase).toBe(false);
    expect(orderSummary({ ...base, processing: true }).canPurchase).toBe(false);
    expect(orderSummary({ ...base, balanceCents: null }).canPurchase).toBe(false);
    const short = orderSummary({ ...base, available: 2 });
    expect(short.shortOfStock).toBe(true);
    expect(short.canPurchase).toBe(false);
    // Before a country is chosen the stock check waits (the country message comes on submit).
    expect(orderSummary({ ...base, available: null }).canPurchase).toBe(true);
  });

  it("the exact balance is enough", () => {
    expect(orderSummary({ ...base, balanceCents: 1350 }).canPurchase).toBe(true);
  });
});

describe("Idempotency-Key per attempt", () => {
  it("keeps the key for a retry of the same order and makes a new one for another order", () => {
    let n = 0;
    const next = () => `key-${++n}`;
    const first = keyForAttempt(null, "A", next);
    expect(first.key).toBe("key-1");
    expect(keyForAttempt(first, "A", next).key).toBe("key-1");
    expect(keyForAttempt(first, "B", next).key).toBe("key-2");
  });
});
