// Proxies are titled by place and username, not by the gateway address they all share (issue #28 item 9).
import { describe, expect, it } from "vitest";
import { proxyPlace, proxyTitle, regionName } from "@/lib/proxy-title";

describe("a proxy's title", () => {
  it("names the city, the country and the username", () => {
    expect(proxyTitle({ country: "NO", city: "Oslo", username: "alice42" })).toBe("Oslo, Norway · alice42");
    expect(proxyTitle({ country: "US", city: "", username: "bob" })).toBe("United States · bob");
    expect(proxyTitle({ country: "", username: "carol" })).toBe("carol");
    expect(proxyTitle({ country: "Unknown", username: "dan" })).toBe("Unknown · dan");
  });

  it("names countries as the browser does and keeps unknown values", () => {
    expect(regionName("GB")).toBe("United Kingdom");
    expect(regionName("de")).toBe("Germany");
    expect(regionName("Unknown")).toBe("Unknown");
    expect(proxyPlace({ country: "JP", city: "Sakai" })).toBe("Sakai, Japan");
  });
});
