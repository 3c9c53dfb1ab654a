import { describe, expect, it } from "vitest";
import { bannerHtml, payoutScheduleLabel, promoText, referralCode, referralLink, shareLinks } from "@/features/affiliate/links";

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

describe("marketing materials", () => {
  const link = "https://shop.example/signup?ref=AB12CD34";

  it("a banner snippet: a styled link to the referral link, the site name escaped", () => {
    const html = bannerHtml(link, `Proxy "Shop" <b>`);
    expect(html).toBe(
      `<a href="${link}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#1d4ed8;color:#ffffff;font:600 16px/1.4 system-ui, sans-serif;text-decoration:none">Proxy &quot;Shop&quot; &lt;b&gt;: fast residential and datacenter proxies. Sign up \u2192</a>`,
    );
  });

  it("a text for e-mails and posts, with the link", () => {
    expect(promoText(link, "ProxyShop")).toBe(
      `I use ProxyShop for residential and datacenter proxies: fast, and you pay per proxy. Sign up with my link: ${link}`,
    );
  });
});
