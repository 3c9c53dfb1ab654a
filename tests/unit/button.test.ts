import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Button } from "@/components/ui/button";

const render = (props: Parameters<typeof Button>[0]) => renderToStaticMarkup(createElement(Button, props));

describe("Button busy state (Signing in..., Creating Account..., Sending...)", () => {
  it("shows the pending text, disabled, while pending", () => {
    const html = render({ type: "submit", pending: true, pendingText: "Signing in...", children: "Sign in" });
    expect(html).toContain("Signing in...");
    expect(html).not.toContain(">Sign in<");
    expect(html).toMatch(/<button[^>]*\sdisabled=""/);
  });

  it("shows its label and is enabled otherwise", () => {
    const html = render({ type: "submit", pending: false, pendingText: "Signing in...", children: "Sign in" });
    expect(html).toContain("Sign in");
    expect(html).not.toContain("Signing in...");
    expect(html).not.toMatch(/<button[^>]*\sdisabled=""/);
  });
});
