import { describe, expect, it } from "vitest";
import { COUNTRIES } from "@/features/auth/countries";

describe("countries", () => {
  it("has the full list from Afghanistan to Zimbabwe, unique", () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(195);
    expect(COUNTRIES[0]).toBe("Afghanistan");
    expect(COUNTRIES.at(-1)).toBe("Zimbabwe");
    expect(new Set(COUNTRIES).size).toBe(COUNTRIES.length);
  });
});
