// Who PocketBase believes about a client's address (issue #26 finding 6,
// pocketbase/forwarded.go). The web server forwards the visitor's address in
// X-Forwarded-For beside the secret PocketBase was started with; anyone else who reaches
// PocketBase's port (another local process, a customer through the built-in gateway on a
// loopback GATEWAY_HOST) is its TCP peer, whatever it claims: the caller's address as
// PocketBase answers it, an API key's IP allowlist, the address stored with a contact message
// and the audit log's. Each caller connects from its own loopback address (127.0.0.x), so
// "the peer" cannot be a constant. The rate limiter's side is in tests/hostile/brute-force
// and tests/api/web-server-hardening.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { adminGet } from "../support/admin.ts";
import type { AuditPage } from "@/features/console-logs/api";
import { createTestUser, forwardedFrom } from "../support/pocketbase.ts";
import { customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { send } from "./cases/web-server-kit.ts";

const shop = useShop();
const pbPort = () => Number(new URL(shop.tpb.url).port);
const FORGED = "203.0.113.9";
/** Every header a client could claim an address with. */
const forgedHeaders = { "x-forwarded-for": FORGED, "x-real-ip": FORGED, forwarded: `for=${FORGED}` };

const ip = (localAddress: string, headers: Record<string, string>) =>
  send("127.0.0.1", pbPort(), { path: "/api/ip", localAddress, headers }).then((r) => r.body);

describe("finding 6: X-Forwarded-For straight to PocketBase", () => {
  it("finding 6: a caller's own X-Forwarded-For (or X-Real-IP, Forwarded) does not change its address, nor does a wrong secret", async () => {
    expect(await ip("127.0.0.31", forgedHeaders)).toBe("127.0.0.31\n");
    expect(await ip("127.0.0.32", { ...forgedHeaders, "x-shop-forwarding-secret": "guessed" })).toBe("127.0.0.32\n");
    const secret = shop.tpb.process.forwardingSecret;
    expect(await ip("127.0.0.33", { ...forgedHeaders, "x-shop-forwarding-secret": secret.slice(0, -1) })).toBe("127.0.0.33\n");
    expect(await ip("127.0.0.34", { ...forgedHeaders, "x-shop-forwarding-secret": `${secret},${secret}` })).toBe("127.0.0.34\n");
  });

  it("the web server's secret makes its X-Forwarded-For believed (each start has its own)", async () => {
    expect(await ip("127.0.0.35", forwardedFrom(shop.tpb, FORGED))).toBe(`${FORGED}\n`);
    expect(shop.tpb.process.forwardingSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("finding 6: a forged X-Forwarded-For does not pass an API key's IP allowlist", async () => {
    const user = await customer(shop);
    const made = await user.pb.send<{ key: string; api_key: { id: string } }>("/api/v1/api-keys", {
      method: "POST",
      body: { name: "allowlisted", scopes: ["read"], ip_allowlist: ["203.0.113.0/24"] },
      headers: { "Idempotency-Key": randomUUID() },
    });
    const account = (localAddress: string, headers: Record<string, string>) =>
      send("127.0.0.1", pbPort(), { path: "/api/v1/account", localAddress, headers: { authorization: `Bearer ${made.key}`, ...headers } });

    const forged = await account("127.0.0.36", forgedHeaders);
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toMatchObject({ code: "ip_not_allowed", detail: expect.stringContaining("127.0.0.36") });
    expect((await shop.su.collection("api_keys").getOne(made.api_key.id))["last_used_ip"]).toBe("");

    // The same request as the web server forwards it for a client at that address.
    const forwarded = await account("127.0.0.37", forwardedFrom(shop.tpb, FORGED));
    expect(forwarded.status).toBe(200);
    expect((await shop.su.collection("api_keys").getOne(made.api_key.id))["last_used_ip"]).toBe(FORGED);
  });

  it("finding 6: a contact message and an admin's sign-in are stored with the caller's real address", async () => {
    const subject = `Forged ${randomUUID()}`;
    const message = await send("127.0.0.1", pbPort(), {
      method: "POST",
      path: "/api/collections/contact_messages/records",
      localAddress: "127.0.0.38",
      headers: forgedHeaders,
      body: JSON.stringify({
        name: "Forger",
        email: "forger@example.com",
        subject,
        message: "Which address did I send this from?",
        type: "general",
      }),
    });
    expect(message.status, message.body).toBe(200);
    const stored = await shop.su.collection("contact_messages").getFirstListItem(shop.su.filter("subject = {:subject}", { subject }));
    expect(stored["ip"]).toBe("127.0.0.38");

    const admin = await createTestUser(shop.su, { is_admin: true, email: `forger-${randomUUID().slice(0, 8)}@api.test` });
    const signIn = await send("127.0.0.1", pbPort(), {
      method: "POST",
      path: "/api/collections/users/auth-with-password",
      localAddress: "127.0.0.39",
      headers: forgedHeaders,
      body: JSON.stringify({ identity: admin.email, password: admin.password }),
    });
    expect(signIn.status).toBe(200);
    const page = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { action: "admin.sign_in", search: admin.email });
    expect(page.items[0]?.details).toMatchObject({ ip: "127.0.0.39" });
  });
});
