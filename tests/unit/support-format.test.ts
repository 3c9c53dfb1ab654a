import { describe, expect, it } from "vitest";
import {
  byCreated,
  byNewest,
  displayFileName,
  senderLabel,
  supportName,
  ticketNumber,
  upsert,
  upsertAll,
} from "@/components/support/format";

const row = (id: string, created: string, text = id) => ({ id, created, text });

describe("ticketNumber", () => {
  it("is the first 8 characters of the id", () => {
    expect(ticketNumber("abcdefgh12345xy")).toBe("abcdefgh");
  });
});

describe("supportName and senderLabel", () => {
  it("uses the default_support_name setting, or Support when blank or missing", () => {
    expect(supportName("Help Desk")).toBe("Help Desk");
    expect(supportName("  ")).toBe("Support");
    expect(supportName("")).toBe("Support");
    expect(supportName(null)).toBe("Support");
  });

  it("labels the customer's own messages You and staff replies with the support name", () => {
    expect(senderLabel({ sender_id: "me" }, "me", "Help Desk")).toBe("You");
    expect(senderLabel({ sender_id: "staff1" }, "me", "Help Desk")).toBe("Help Desk");
  });
});

describe("upsert", () => {
  it("adds a message once, in date order, whichever copy arrives first", () => {
    const list = [row("a", "2026-01-01 10:00:00.000Z"), row("c", "2026-01-01 10:02:00.000Z")];
    const b = row("b", "2026-01-01 10:01:00.000Z");
    const once = upsert(list, b, byCreated);
    const twice = upsert(once, { ...b, text: "b (event)" }, byCreated);
    expect(twice.map((m) => m.id)).toEqual(["a", "b", "c"]);
    expect(twice[1]?.text).toBe("b (event)");
  });

  it("sorts newest first for tickets, ties by id", () => {
    const list = [row("a", "2026-01-01 10:00:00.000Z")];
    const result = upsert(upsert(list, row("c", "2026-01-02 10:00:00.000Z"), byNewest), row("b", "2026-01-02 10:00:00.000Z"), byNewest);
    expect(result.map((t) => t.id)).toEqual(["c", "b", "a"]);
  });

  it("merges a loaded page with live rows without duplicates", () => {
    const live = [row("b", "2026-01-01 10:01:00.000Z", "live")];
    const loaded = [row("a", "2026-01-01 10:00:00.000Z"), row("b", "2026-01-01 10:01:00.000Z", "loaded")];
    const merged = upsertAll(live, loaded, byCreated);
    expect(merged.map((m) => `${m.id}:${m.text}`)).toEqual(["a:a", "b:loaded"]);
  });
});

describe("displayFileName", () => {
  it("drops PocketBase's random suffix", () => {
    expect(displayFileName("screenshot_a1b2c3d4e5.png")).toBe("screenshot.png");
    expect(displayFileName("invoice_2026_abcdefghij.pdf")).toBe("invoice_2026.pdf");
    expect(displayFileName("plain.pdf")).toBe("plain.pdf");
  });
});
