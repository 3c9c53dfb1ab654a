import { describe, expect, it } from "vitest";
import { personName, referralStatusLabel, referralTone } from "@/features/console-affiliates/format";

describe("affiliate formats", () => {
  it("colours referral statuses: pending yellow, paid green, others red", () => {
    expect(referralTone("pending")).toBe("warning");
    expect(referralTone("paid")).toBe("success");
    expect(referralTone("cancelled")).toBe("danger");
    expect(referralStatusLabel("paid")).toBe("Paid");
    expect(personName("", "", "a@b.c")).toBe("a@b.c");
  });
});
