import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COUNTRIES } from "@/features/auth/countries";

/** Evaluates the hooks' CommonJS module (the repo is "type": "module", so require() can't load it). */
function hookCountries(): unknown {
  const source = readFileSync(new URL("../../pocketbase/pb_hooks/lib/accounts-countries.js", import.meta.url), "utf8");
  const module = { exports: {} as unknown };
  new Function("module", source)(module);
  return module.exports;
}

describe("countries", () => {
  it("has the full list, unique", () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(195);
    expect(new Set(COUNTRIES).size).toBe(COUNTRIES.length);
  });
  it("is the same list the sign-up route accepts", () => {
    expect(hookCountries()).toEqual([...COUNTRIES]);
  });
});
