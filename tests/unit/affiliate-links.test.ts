import { describe, expect, it } from "vitest";
import { payoutScheduleLabel, referralCode, referralLink, shareLinks } from "@/features/affiliate/links";

describe("referral code and link", () => {
  it("is the first 8 characters of the user id in upper case", () => {
    expect(referralCode("ab12cd34ef56gh7")).toBe("AB12CD34");
  });

  it("is the origin plus /signup?ref= and the code", () => {
    expect(referralLink("https://shop.example", "AB12CD34")).toBe("https://shop.example/signup?ref=AB12CD34");
  });
});

describe("shareLinks", () => {
  it("gives X, Facebook and LinkedIn share intents carrying the link", () => {
    const link = "https://shop.example/signup?ref=AB12CD34";
    const links = shareLinks(link, "ProxyShop");
    expect(links.map((l) => l.site)).toEqual(["X", "Facebook", "LinkedIn"]);
    for (const { href } of links) {
      const url = new URL(href);
      expect(url.protocol).toBe("https:");
      expect([...url.searchParams.values()]).toContain(link);
    }
    expect(new URL(links[0]!.href).searchParams.get("text")).toContain("ProxyShop");
  });
});

describe("payoutScheduleLabel", () => {
  it("capitalises the schedule", () => {
    expect(payoutScheduleLabel("monthly")).toBe("Monthly");
    expect(payoutScheduleLabel("")).toBe("");
  });
});
