import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, settingsFromRows } from "@/lib/site";

describe("settingsFromRows", () => {
  it("keeps the default for a blank required setting and a malformed colour", () => {
    const settings = settingsFromRows([
      { key: "site_name", value: "  " },
      { key: "primary_color", value: "blue" },
      { key: "unknown_key", value: "x" },
    ]);
    expect(settings.site_name).toBe(DEFAULT_SETTINGS.site_name);
    expect(settings.primary_color).toBe(DEFAULT_SETTINGS.primary_color);
    expect(settings).not.toHaveProperty("unknown_key");
  });

  it("lets an admin leave the optional logo and postal address blank", () => {
    const settings = settingsFromRows([
      { key: "contact_address", value: "" },
      { key: "logo_url", value: " " },
      { key: "site_name", value: " Renamed " },
    ]);
    expect(settings.contact_address).toBe("");
    expect(settings.logo_url).toBe("");
    expect(settings.site_name).toBe("Renamed");
  });
});
