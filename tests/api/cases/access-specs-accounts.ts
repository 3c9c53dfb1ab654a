// The access matrix's rows for accounts, shop settings, pricing plans and the audit log.
import { ADMIN_ROWS, ADMIN_WRITES, ALL, claimedId, OWN_ROWS, SERVER_WRITES, type CollectionSpec } from "./access-spec-kit.ts";

export const usersSpec: CollectionSpec = {
  name: "users",
  make: async (ctx, owner) => ctx.users[owner].id,
  createBody: async (_ctx, _who, marker) => ({
    email: `${marker}@test.local`,
    password: "Passw0rd#Matrix1",
    passwordConfirm: "Passw0rd#Matrix1",
    first_name: marker,
  }),
  markerFilter: (m) => `first_name = "${m}"`,
  updateBody: (m) => ({ first_name: m }),
  ...OWN_ROWS,
  create: ALL(403),
  // Admins manage users through /api/admin routes, not by editing records.
  update: { anon: 404, A: 200, B: 404, admin: 404 },
  delete: ALL(403),
};

export const settingsSpec: CollectionSpec = {
  name: "settings",
  make: async (ctx) => (await ctx.su.collection("settings").create({ key: `matrix_${ctx.n()}`, value: "x" })).id,
  createBody: async (_ctx, _who, marker) => ({ key: `matrix_${marker}`, value: marker }),
  markerFilter: (m) => `value = "${m}"`,
  updateBody: (m) => ({ value: m }),
  list: { anon: ["A", "B"], A: ["A", "B"], B: ["A", "B"], admin: ["A", "B"] },
  view: ALL(200),
  ...ADMIN_WRITES,
};

export const pricingPlansSpec: CollectionSpec = {
  name: "pricing_plans",
  // A's row is an active plan, B's an inactive one.
  make: async (ctx, owner) =>
    (
      await ctx.su
        .collection("pricing_plans")
        .create({ name: `Plan ${ctx.n()}`, type: "HTTP", price_cents: 100, features: ["x"], popular: false, active: owner === "A" })
    ).id,
  createBody: async (_ctx, _who, marker) => ({ name: marker, type: "HTTP", price_cents: 100, features: ["x"], active: true }),
  markerFilter: (m) => `name = "${m}"`,
  updateBody: (m) => ({ name: m }),
  list: { anon: ["A"], A: ["A"], B: ["A"], admin: ["A", "B"] },
  view: ALL(200),
  ...ADMIN_WRITES,
};

export const auditLogsSpec: CollectionSpec = {
  name: "audit_logs",
  // An admin's settings change writes the row.
  make: async (ctx) => {
    const admin = await ctx.signIn(ctx.users.admin);
    const setting = await admin.collection("settings").create({ key: `audit_${ctx.n()}`, value: "v" });
    return (await ctx.su.collection("audit_logs").getFirstListItem(`target_id = "${setting.id}"`)).id;
  },
  createBody: async (ctx, who, marker) => ({
    admin_id: claimedId(ctx, who),
    action: marker,
    target_type: "x",
    target_id: "y",
    details: {},
  }),
  markerFilter: (m) => `action = "${m}"`,
  updateBody: (m) => ({ action: m }),
  ...ADMIN_ROWS,
  ...SERVER_WRITES,
};
