// The console's contract (src/lib/api-contract/admin) against a real shop: every body example
// is accepted by its hook (no 400; the request validation will refuse what the document does
// not allow, so an example it does not allow would be a lie), and every answer, of the
// examples and of each read, matches the route's response schema. Changes run on this
// file's throwaway shop, on users and proxies made for them.
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import * as v from "valibot";
import { beforeAll, describe, expect, it } from "vitest";
import { apiThrough } from "@/lib/api-client";
import { ADMIN_ROUTES } from "@/lib/api-contract/admin/index";
import type { CallInput } from "@/lib/api-contract/client";
import { examplesOf, type ApiRoute } from "@/lib/api-contract/define";
import { setSetting } from "../support/admin.ts";
import { createTestUser } from "../support/pocketbase.ts";
import { addStock, customer, proxyBuyer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

const shop = useShop();

/** Calls `route` as `client` and checks the answer against the route's response schema. */
async function callChecked(route: ApiRoute, input: Omit<Input, "client">, client: PocketBase = shop.admin): Promise<unknown> {
  const answer = await apiThrough(() => client).call(route, input as CallInput<ApiRoute>);
  if (route.status !== 204) {
    const issues = v.safeParse(route.response, answer).issues?.map((i) => `${v.getDotPath(i) ?? "(answer)"}: ${i.message}`);
    expect(issues ?? [], `${route.method} ${route.base}${route.path} answers its schema`).toEqual([]);
  }
  return answer;
}

/** A user made for one route, named by their e-mail. */
const target = async (email = `target-${randomUUID()}@api.test`) => (await createTestUser(shop.su, { email })).id;
const openRegistration = () => setSetting(shop.su, "admin_registration_enabled", "true");

/** A registration link's token, made as the admin. */
async function invitationToken(): Promise<string> {
  await openRegistration();
  const made = await shop.admin.send<{ url: string }>("/api/admin/invitations", { method: "POST", body: {} });
  return new URL(made.url, "http://shop.test").searchParams.get("token") ?? "";
}

/** A call's input with its body as an example has it (checked by the server, not by the types here). */
type Input = Omit<CallInput<ApiRoute>, "body"> & { body?: unknown; client?: PocketBase };
type Case = (example: Record<string, unknown>) => Promise<Input>;
const key = () => randomUUID();

/** What each route with a body example needs besides its example: the ids it names, the caller. */
const CASES: Record<string, Case> = {
  setUserAdmin: async (body) => ({ params: { id: await target() }, body }),
  changeUserEmail: async (body) => ({ params: { id: await target() }, body }),
  setUserSuspended: async (body) => ({ params: { id: await target() }, body }),
  deleteUser: async (body) => ({ params: { id: await target(String(body["confirm_email"])) }, body }),
  adjustBalance: async (body) => ({ params: { id: await target() }, body, idempotencyKey: key() }),
  refundOrder: async (body) => ({ params: { id: (await proxyBuyer(shop, { count: 1 })).order.id }, body, idempotencyKey: key() }),
  updateInventoryProxy: async (body) => {
    const made = await shop.admin.send<{ ids: string[] }>("/api/admin/proxies/generate", {
      method: "POST",
      body: { type: "HTTP", country: "US", quantity: 1 },
    });
    return { params: { id: made.ids[0] ?? "" }, body };
  },
  assignInventoryProxy: async (body) => {
    const [spare] = await addStock(shop, { type: "HTTP", country: `A${randomUUID().slice(0, 5)}`, count: 1 });
    return { params: { id: spare ?? "" }, body: { ...body, user_id: (await customer(shop, 1000)).id }, idempotencyKey: key() };
  },
  generateProxies: async (body) => ({ body }),
  importProxies: async (body) => ({ body }),
  saveSettings: async (body) => ({ body }),
  createInvitation: async (body) => {
    await openRegistration();
    return { body };
  },
  createGatewayToken: async (body) => ({ body }),
  signUp: async (body) => ({ body, client: shop.tpb.client() }),
  checkAdminInvitation: async (body) => ({ body: { ...body, token: await invitationToken() }, client: shop.tpb.client() }),
  registerAdmin: async (body) => ({ body: { ...body, token: await invitationToken() }, client: shop.tpb.client() }),
};

const withExamples = ADMIN_ROUTES.filter((r) => r.body);

describe("the console's body examples", () => {
  it("every route with a body has an example, and a case here", () => {
    for (const r of withExamples) {
      expect(examplesOf(r.body), `${r.id} has an example`).not.toHaveLength(0);
      expect(Object.keys(CASES), `${r.id} has a case`).toContain(r.id);
    }
  });

  it.each(withExamples.map((r) => [r.id, r] as const))("%s accepts its example and answers its schema", async (_id, r) => {
    for (const example of examplesOf(r.body)) {
      const { client, ...input } = await (CASES[r.id] as Case)(example as Record<string, unknown>);
      await callChecked(r, input, client);
    }
  });
});

describe("the console's reads answer their schemas", () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const buyer = await proxyBuyer(shop, { count: 1 });
    const owner = await customer(shop);
    const affiliate = await shop.su.collection("affiliates").getFirstListItem(shop.su.filter("user_id = {:id}", { id: owner.id }));
    const ticket = await buyer.user.pb.send<{ ticket: { id: string } }>("/api/v1/support/tickets", {
      method: "POST",
      body: { subject: "Contract check", message: "A ticket for the inbox's answer." },
    });
    Object.assign(ids, {
      getUser: buyer.user.id,
      listAffiliateReferrals: affiliate.id,
      getInventoryProxy: buyer.proxies[0]?.id ?? "",
      getInboxTicket: ticket.ticket.id,
    });
  });

  const reads = ADMIN_ROUTES.filter((r) => r.method === "GET");
  it.each(reads.map((r) => [r.id, r] as const))("%s", async (id, r) => {
    const client = r.scope === "public" ? shop.tpb.client() : shop.admin;
    await callChecked(r, r.params ? { params: { id: ids[id] ?? "" } } : {}, client);
  });

  it("the jobs answer their schemas (as the superuser)", async () => {
    for (const r of ADMIN_ROUTES.filter((x) => x.tag === "Jobs")) await callChecked(r, {}, shop.su);
  });
});
