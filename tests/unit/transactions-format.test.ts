// Transaction History: query, pager rule, signs and colours, and the CSV export.
import Papa from "papaparse";
import PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { showPager, transactionFilter } from "@/features/transactions/filters";
import { csvAmount, transactionsCsv, transactionsFileName } from "@/features/transactions/export";
import { amountClass, signedAmount } from "@/features/transactions/format";
import { formatDateTime } from "@/lib/dates";

const client = new PocketBase("http://127.0.0.1");

describe("transactionFilter", () => {
  it("scopes to the user and adds the description search and the type", () => {
    expect(transactionFilter(client, "u1", { search: "", type: "" })).toBe('user_id = "u1"');
    expect(transactionFilter(client, "u1", { search: " 100% ", type: "REFUND" })).toBe(
      'user_id = "u1" && description ~ "%100\\\\%%" && type = "REFUND"',
    );
  });
});

describe("showPager", () => {
  it("shows the pager only with a full page loaded or past page 1", () => {
    expect(showPager(1, 19)).toBe(false);
    expect(showPager(1, 20)).toBe(true);
    expect(showPager(2, 3)).toBe(true);
  });
});

describe("amounts", () => {
  it("shows credits and refunds positive green, debits and purchases negative red", () => {
    expect(signedAmount({ type: "CREDIT", amount_cents: 1000 })).toBe("+$10.00");
    expect(signedAmount({ type: "REFUND", amount_cents: 450 })).toBe("+$4.50");
    expect(signedAmount({ type: "DEBIT", amount_cents: -250 })).toBe("-$2.50");
    expect(signedAmount({ type: "PROXY_PURCHASE", amount_cents: -123456 })).toBe("-$1,234.56");
    expect(amountClass("CREDIT")).toContain("green");
    expect(amountClass("REFUND")).toContain("green");
    expect(amountClass("DEBIT")).toContain("red");
    expect(amountClass("PROXY_PURCHASE")).toContain("red");
  });
  it("writes plain signed dollars for spreadsheets", () => {
    expect(csvAmount({ type: "CREDIT", amount_cents: 1000 })).toBe("10.00");
    expect(csvAmount({ type: "PROXY_PURCHASE", amount_cents: -450 })).toBe("-4.50");
  });
});

describe("transactionsCsv", () => {
  it("has the five columns, quoted, neutralised, with the spec's date format", () => {
    const created = "2026-03-04 05:06:07.000Z";
    const csv = transactionsCsv([
      { created, type: "CREDIT", amount_cents: 1000, description: "=cmd|' /C calc'!A0", stripe_payment_intent_id: "pi_123" },
      { created, type: "DEBIT", amount_cents: -250, description: "Fee, small", stripe_payment_intent_id: "" },
    ]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe('"Date","Type","Amount","Description","Stripe Payment ID"');
    expect(formatDateTime(created)).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2}$/);
    expect(Papa.parse<string[]>(csv).data.slice(1)).toEqual([
      [formatDateTime(created), "CREDIT", "10.00", "'=cmd|' /C calc'!A0", "pi_123"],
      [formatDateTime(created), "DEBIT", "-2.50", "Fee, small", ""],
    ]);
    expect(transactionsFileName(new Date(2026, 10, 5))).toBe("transactions-2026-11-05.csv");
  });
});
