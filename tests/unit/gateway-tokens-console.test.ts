// The console side of gateway tokens: the name's rule (the server's, lib/gateway/tokens.js),
// the command shown with a new token, and the audit log's sentences for the two actions.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { auditSentence, type AuditSentenceEntry } from "@/features/console-logs/format";
import { GatewayTokenNameSchema } from "@/features/console-settings/components/gateway-token-schema";
import { gatewayCommand } from "@/features/console-settings/components/gateway-tokens";

const issue = (name: unknown) => v.safeParse(GatewayTokenNameSchema, { name }).issues?.[0]?.message;

describe("gateway tokens in the console", () => {
  it("takes a trimmed name of 1-100 characters, counted as the server counts them", () => {
    expect(v.parse(GatewayTokenNameSchema, { name: "  eu-1 " })).toEqual({ name: "eu-1" });
    expect(issue("   ")).toBe("Name the gateway (1-100 characters), e.g. eu-1");
    expect(issue("n".repeat(100))).toBeUndefined();
    expect(issue("🙂".repeat(100))).toBeUndefined();
    expect(issue("n".repeat(101))).toBe("The name must be at most 100 characters");
  });

  it("shows the command with the shop's address and the token file", () => {
    expect(gatewayCommand("https://shop.example.com")).toBe(
      "pocketbase gateway --pb-url https://shop.example.com --token-file gateway.token --host 0.0.0.0 --http-port 3128 --socks-port 1080",
    );
  });

  it("writes a sentence for making and revoking a token, with its name", () => {
    const entry = (action: string): AuditSentenceEntry => ({
      action,
      target_type: "gateway_tokens",
      target_id: "gwtokenid000001",
      details: { name: "eu-1" },
      admin_email: "ada@example.com",
      admin_first_name: "Ada",
      admin_last_name: "Lovelace",
      target_label: "",
      target_name: "",
      target_deleted: true,
    });
    expect(auditSentence(entry("gateway_token.create"))).toBe('Admin Ada Lovelace created gateway token "eu-1"');
    expect(auditSentence(entry("gateway_token.revoke"))).toBe('Admin Ada Lovelace revoked gateway token "eu-1"');
  });
});
