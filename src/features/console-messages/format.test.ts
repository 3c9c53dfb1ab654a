import { describe, expect, it } from "vitest";
import { replyLink, replySubject } from "@/features/console-messages/format";

describe("replyLink", () => {
  it("addresses the sender with Re: and the subject encoded", () => {
    expect(replyLink("jo+shop@example.com", "Prices & plans? 100%")).toBe(
      "mailto:jo%2Bshop@example.com?subject=Re%3A%20Prices%20%26%20plans%3F%20100%25",
    );
  });

  it("does not double Re:", () => {
    expect(replySubject("RE: Invoice")).toBe("RE: Invoice");
    expect(replySubject("  Invoice ")).toBe("Re: Invoice");
  });
});
