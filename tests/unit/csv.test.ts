// CSV exports: every value quoted, formula-looking cells neutralised (ARCHITECTURE.md 6).
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { neutralizeCell, toCsv } from "@/lib/csv";

describe("neutralizeCell", () => {
  it.each(["=SUM(A1:A2)", "+1", "-1+2", "-2+3+cmd|' /C calc'!A0", "@cmd", "\tx", "\rx", "-", "+-1"])(
    "prefixes %j so a spreadsheet shows it as text",
    (value) => {
      expect(neutralizeCell(value)).toBe(`'${value}`);
    },
  );
  it("leaves ordinary values alone", () => {
    expect(neutralizeCell("host.example:8080")).toBe("host.example:8080");
    expect(neutralizeCell(42)).toBe("42");
    // Plain (negative) numbers are data: amounts stay numbers in the spreadsheet.
    expect(neutralizeCell(-12.5)).toBe("-12.5");
    expect(neutralizeCell("-100")).toBe("-100");
    expect(neutralizeCell(null)).toBe("");
  });
});

describe("toCsv", () => {
  it("quotes every value, neutralises formulas and round-trips", () => {
    const csv = toCsv(
      ["Host", "Amount"],
      [
        ["a.example", -100],
        ['say "hi", =1+1', '=HYPERLINK("x")'],
      ],
    );
    expect(csv.split("\r\n")[0]).toBe('"Host","Amount"');
    expect(csv.split("\r\n")[1]).toBe('"a.example","-100"');
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[2]).toEqual(['say "hi", =1+1', '\'=HYPERLINK("x")']);
  });
});
