// The matrix over every console route under /api/admin/ (issue #7): anonymous callers get
// 401 and customers 403 and nothing changes; in demo mode every change is refused with its
// message and nothing changes while reads still answer; an admin succeeds, and each admin
// change leaves exactly one audit row. The route list is read from pb_hooks, so a new
// admin route without a row here fails the first test.
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { setSetting } from "../support/admin.ts";
import { declaredRoutes } from "../support/hook-routes.ts";
import { addStock, customer, expectEveryBalanceMatchesItsLedger, post, purchase } from "../support/shop.ts";
import { payByStripe } from "../support/stripe-mock.ts";
import { useShop } from "../support/use-shop.ts";
import { ROUTES, type Route, type Targets } from "./cases/admin-routes-table.ts";

const DEMO_MESSAGE = "Demo mode is on: the console is read-only and changes are not saved.";

// Credits are bought through Stripe (stripe-mock): the referral pay route needs a commission;
// the user tools send mails (a mail sink).
const shop = useShop({ stripe: true, ledger: false, mail: true });

const SUPERUSER_ROUTES = new Set(["POST /api/admin/jobs/proxy-expiry", "POST /api/admin/jobs/webhook-events"]);

/** Every route of pb_hooks under /api/admin/. */
const declaredAdminRoutes = () => declaredRoutes().filter((r) => r.split(" ")[1]!.startsWith("/api/admin/"));

async function call(pb: PocketBase | null, route: Route, targets: Targets): Promise<{ status: number; message: string }> {
  const headers: Record<string, string> = {};
  if (pb) headers["Authorization"] = pb.authStore.token;
  if (route.keyed) headers["Idempotency-Key"] = randomUUID();
  const body = route.body?.(targets);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(shop.tpb.url + route.url(targets), {
    method: route.method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let message = "";
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === "string") message = parsed.message;
  } catch {
    // 204 and other bodies without JSON
  }
  return { status: res.status, message };
}

/** Row count and newest change of every collection: equal fingerprints mean nothing changed. */
async function fingerprint(): Promise<Record<string, string>> {
  const collections = await shop.su.collections.getFullList();
  const out: Record<string, string> = {};
  for (const c of collections) {
    if (c.type === "view" || c.name.startsWith("_")) continue;
    const sortable = c.fields.some((f) => f.name === "updated");
    // A signed-in customer's refusal is itself audited ("admin.refused"): every other row counts.
    const filter = c.name === "audit_logs" ? 'action != "admin.refused"' : "";
    const page = await shop.su.collection(c.name).getList(1, 1, { ...(sortable ? { sort: "-updated" } : {}), filter });
    out[c.name] = `${page.totalItems} ${(page.items[0]?.["updated"] as string | undefined) ?? ""}`;
  }
  return out;
}

async function auditCount(action: string): Promise<number> {
  return (await shop.su.collection("audit_logs").getList(1, 1, { filter: shop.su.filter("action = {:action}", { action }) })).totalItems;
}

/** Fresh rows for one phase of calls. */
async function arrange(): Promise<Targets> {
  const country = `M${randomUUID().slice(0, 5)}`;
  const [proxyId, doomedProxyId] = await addStock(shop, { type: "RESIDENTIAL", country, count: 2 });
  await addStock(shop, { type: "RESIDENTIAL", country: `${country}B`, count: 1 });
  const buyer = await customer(shop, 5000);
  const order = await purchase(buyer.pb, { type: "RESIDENTIAL", country: `${country}B`, quantity: 1 });
  const ticket = await post<{ ticket: { id: string } }>(
    buyer.pb,
    "/api/v1/support/tickets",
    { subject: "Matrix ticket", message: "A message long enough.", priority: "low" },
    null,
  );

  // A referral with a pending commission: someone signs up with the buyer's code and pays.
  const affiliate = await shop.su.collection("affiliates").getFirstListItem(shop.su.filter("user_id = {:id}", { id: buyer.id }));
  const signup = await shop.tpb.client().send<{ token: string; record: { id: string } }>("/api/shop/signup", {
    method: "POST",
    body: {
      first_name: "Rita",
      last_name: "Referred",
      email: `referred-${randomUUID()}@api.test`,
      country: "Spain",
      ref: affiliate["code"],
    },
  });
  await shop.su.collection("users").update(signup.record.id, { verified: true });
  const referred = shop.tpb.client();
  referred.authStore.save(signup.token, { ...signup.record, verified: true } as never);
  // Only a real (Stripe) payment earns a commission (security review #13, finding 2); a
  // payout is at least $50.00 (catalog.json affiliate.minimum_payout_cents): 3 x $17.00.
  for (let i = 0; i < 3; i++) {
    const checkout = await post<{ payment: { id: string } }>(referred, "/api/v1/credits/checkout", { package_id: "package-100" });
    await payByStripe(shop.tpb.url, checkout.payment);
  }
  const referral = await shop.su
    .collection("referrals")
    .getFirstListItem(shop.su.filter("referred_user_id = {:id}", { id: signup.record.id }));

  const invitation = await shop.admin.send<{ id: string }>("/api/admin/invitations", { method: "POST", body: {} });
  const gatewayToken = await shop.admin.send<{ id: string }>("/api/admin/gateway-tokens", {
    method: "POST",
    body: { name: `matrix-${randomUUID().slice(0, 8)}` },
  });
  const user = await customer(shop, 1000);
  const doomed = await customer(shop);
  return {
    userId: user.id,
    userEmail: user.email,
    doomedUserId: doomed.id,
    doomedUserEmail: doomed.email,
    orderId: order.order.id,
    proxyId: proxyId!,
    doomedProxyId: doomedProxyId!,
    ticketId: ticket.ticket.id,
    affiliateId: affiliate.id,
    referralId: referral.id,
    invitationId: invitation.id,
    gatewayTokenId: gatewayToken.id,
  };
}

beforeAll(() => setSetting(shop.su, "admin_registration_enabled", "true"));

describe("every /api/admin/ route", () => {
  it("is in this matrix", () => {
    const covered = ROUTES.map((r) => `${r.method} ${r.route}`).sort();
    expect(declaredAdminRoutes().filter((r) => !SUPERUSER_ROUTES.has(r))).toEqual(covered);
  });

  it("answers anonymous callers 401 and customers 403, and changes nothing for them", async () => {
    const targets = await arrange();
    const someone = await customer(shop, 1000);
    const before = await fingerprint();
    for (const route of ROUTES) {
      const name = `${route.method} ${route.route}`;
      expect((await call(null, route, targets)).status, `${name} anonymous`).toBe(401);
      expect((await call(someone.pb, route, targets)).status, `${name} customer`).toBe(403);
    }
    expect(await fingerprint()).toEqual(before);
  });

  it("refuses every change in demo mode with its message and nothing changes; reads still answer", async () => {
    const targets = await arrange();
    await setSetting(shop.su, "demo_mode", "true");
    try {
      const before = await fingerprint();
      for (const route of ROUTES) {
        const name = `${route.method} ${route.route}`;
        const result = await call(shop.admin, route, targets);
        if (route.audit) {
          expect(result.status, name).toBe(403);
          expect(result.message, name).toBe(DEMO_MESSAGE);
        } else {
          expect(result.status, name).toBe(200);
        }
      }
      expect(await fingerprint()).toEqual(before);
    } finally {
      await setSetting(shop.su, "demo_mode", "false");
    }
  });

  it("lets an admin call each route, and each change leaves exactly one audit row", async () => {
    const targets = await arrange();
    for (const route of ROUTES) {
      const name = `${route.method} ${route.route}`;
      const audited = route.audit ? await auditCount(route.audit) : 0;
      const result = await call(shop.admin, route, targets);
      expect(result.status, `${name}: ${result.message}`).toBeLessThan(300);
      if (route.audit) expect(await auditCount(route.audit), `${name} audit rows`).toBe(audited + 1);
    }
    await expectEveryBalanceMatchesItsLedger(shop.su);
  });
});
