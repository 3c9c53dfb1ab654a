// The audit log's sentences (features/console-logs/format.ts) for actions without a test of their own.
import { describe, expect, it } from "vitest";
import { auditSentence, type AuditSentenceEntry } from "@/features/console-logs/format";

const entry = (action: string, details: Record<string, unknown>): AuditSentenceEntry => ({
  action,
  target_type: "users",
  target_id: "adminid00000001",
  details,
  admin_email: "ada@example.com",
  admin_first_name: "Ada",
  admin_last_name: "Lovelace",
  target_label: "ada@example.com",
  target_name: "Ada Lovelace",
  target_deleted: false,
});

describe("audit log sentences", () => {
  it("tells how an administrator joined: an invitation or the first-run setup link", () => {
    expect(auditSentence(entry("invitations.accept", {}))).toBe("Admin Ada Lovelace joined as an administrator through an invitation");
    expect(auditSentence(entry("admin_setup.create", { email: "ada@example.com" }))).toBe(
      "Admin Ada Lovelace joined as an administrator through a setup link",
    );
  });
});
