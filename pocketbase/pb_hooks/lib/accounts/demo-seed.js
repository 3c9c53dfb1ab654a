// @ts-check
// Demo data for the embedded default (SHOP_DEMO_SEED=true): an admin, a customer whose
// history is made by the shop's own purchase and payment code, a support ticket with a
// staff reply, and AVAILABLE inventory across the purchase locations. The inventory is
// what Generate makes (issue #16): gateway proxies that exit directly from this machine,
// on the gateway's host and port, so the demo customer's proxies work out of the box.

/** Purchase locations: ISO 3166-1 country code -> state -> cities (lib/locations.json's names). */
const LOCATIONS = {
  US: { California: ["Los Angeles", "San Francisco"], "New York": ["New York City", "Buffalo"], Texas: ["Houston", "Dallas"] },
  CA: { Ontario: ["Toronto", "Ottawa"], Quebec: ["Montreal", "Quebec City"] },
  GB: { England: ["London", "Manchester"], Scotland: ["Edinburgh", "Glasgow"] },
  DE: { Bavaria: ["Munich", "Nuremberg"], Berlin: ["Berlin"] },
  FR: { "Île-de-France": ["Paris"], Provence: ["Marseille", "Nice"] },
};

/** Inventory rows per city and type. */
const PER_CITY = 5;
/** Older seeds named their stock "psdemo_..."; unseeding still finds those. */
const DEMO_USERNAME_PREFIX = "psdemo_";
/**
 * Demo stock is named as Generate names proxies ("res_us_k3j9..."), so it looks like any
 * other stock (issue #28); its record ids start with this, so unseeding finds it.
 */
const DEMO_ID_PREFIX = "demo";

/**
 * @typedef {object} DemoAccounts
 * @property {string} adminEmail
 * @property {string} adminPassword
 * @property {string} customerEmail
 * @property {string} customerPassword
 */

/** @returns {DemoAccounts} */
function demoAccountsFromEnv() {
  return {
    adminEmail: $os.getenv("SHOP_DEMO_ADMIN_EMAIL") || "admin@proxyshop.local",
    adminPassword: $os.getenv("SHOP_DEMO_ADMIN_PASSWORD") || "DemoAdmin#2026",
    customerEmail: $os.getenv("SHOP_DEMO_CUSTOMER_EMAIL") || "customer@proxyshop.local",
    customerPassword: $os.getenv("SHOP_DEMO_CUSTOMER_PASSWORD") || "DemoCustomer#2026",
  };
}

/**
 * @param {CoreApp} app
 * @param {{ email: string, password: string, firstName: string, lastName: string, country: string, isAdmin: boolean }} user
 */
function createUser(app, user) {
  /** @type {typeof import("./new-user.js")} */
  const { provisionUser } = require(`${__hooks}/lib/accounts/new-user.js`);
  const record = new Record(app.findCachedCollectionByNameOrId("users"));
  record.setEmail(user.email);
  record.setPassword(user.password);
  record.setVerified(true);
  record.set("first_name", user.firstName);
  record.set("last_name", user.lastName);
  record.set("country", user.country);
  record.set("is_admin", user.isAdmin);
  record.set("onboarding_completed", true);
  record.set("onboarding_completed_at", new Date().toISOString());
  // Published credentials: while demo mode is on, nobody can change or spend with them
  // (accounts.pb.js, lib/core/demo-mode.js).
  record.set("is_demo", true);
  app.save(record);
  // The users hook does this too when hooks are loaded; it is idempotent.
  provisionUser(app, record.id);
  return record;
}

/**
 * @param {CoreApp} app
 * @param {DemoAccounts} accounts
 */
function seedDemo(app, accounts) {
  const admin = createUser(app, {
    email: accounts.adminEmail,
    password: accounts.adminPassword,
    firstName: "Alex",
    lastName: "Admin",
    country: "United States",
    isAdmin: true,
  });
  const customer = createUser(app, {
    email: accounts.customerEmail,
    password: accounts.customerPassword,
    firstName: "Casey",
    lastName: "Customer",
    country: "Canada",
    isAdmin: false,
  });

  // Inventory: every location, residential and datacenter, PER_CITY proxies each, exiting
  // directly from the gateway's machine (no bind address) and reached at the gateway's host
  // and port for the type (lib/proxies/gateway-endpoint.js, as Generate writes them).
  const inventory = app.findCachedCollectionByNameOrId("proxies");
  /** @type {typeof import("../core/sealing.js")} */
  const sealing = require(`${__hooks}/lib/core/sealing.js`);
  /** @type {typeof import("../proxies/gateway-endpoint.js")} */
  const gateway = require(`${__hooks}/lib/proxies/gateway-endpoint.js`);
  /** @type {typeof import("../proxies/proxies.js")} */
  const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
  const idAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (const [country, states] of Object.entries(LOCATIONS)) {
    for (const [state, cities] of Object.entries(states)) {
      for (const city of cities) {
        for (const type of ["RESIDENTIAL", "DATACENTER"]) {
          const { host, port } = gateway.gatewayEndpoint(type, app);
          for (let i = 0; i < PER_CITY; i++) {
            const record = new Record(inventory, {
              id: DEMO_ID_PREFIX + $security.randomStringWithAlphabet(15 - DEMO_ID_PREFIX.length, idAlphabet),
              host,
              port,
              exit: "direct",
              bind_address: "",
              username: proxies.newUsername(type, country),
              password_encrypted: sealing.sealPassword($security.randomString(16)),
              type,
              country,
              state,
              city,
              status: "AVAILABLE",
            });
            app.save(record);
          }
        }
      }
    }
  }

  // The customer's history, through the shop's own code: the admin referred them, the
  // welcome credit, a test-provider credit purchase (test money: it earns the admin no commission) and
  // two proxy orders.
  /** @type {typeof import("../money/payments.js")} */
  const payments = require(`${__hooks}/lib/money/payments.js`);
  /** @type {typeof import("../proxies/purchase.js")} */
  const proxiesLib = require(`${__hooks}/lib/proxies/purchase.js`);
  require(`${__hooks}/lib/affiliate/referrals.js`).linkReferral(app, customer, admin.id.slice(0, 8));
  require(`${__hooks}/lib/money/welcome-credit.js`).grantWelcomeCredit(app, customer.id);
  const pkg = payments.findPackage("package-50");
  const payment = new Record(app.findCachedCollectionByNameOrId("payments"), {
    user_id: customer.id,
    package_id: pkg.id,
    amount_cents: pkg.price_cents,
    currency: "usd",
    credits_cents: pkg.credits_cents,
    bonus_cents: pkg.bonus_cents,
    provider: "test",
    status: "pending",
  });
  app.save(payment);
  payments.completePayment(app, payment.id, { providerPaymentId: `test_${payment.id}`, amountCents: pkg.price_cents, currency: "usd" });
  proxiesLib.purchase(app, customer.id, { type: "RESIDENTIAL", country: "US", state: "", city: "", quantity: 2 }, null);
  proxiesLib.purchase(app, customer.id, { type: "DATACENTER", country: "DE", state: "", city: "", quantity: 1 }, null);

  const ticket = new Record(app.findCachedCollectionByNameOrId("support_tickets"), {
    user_id: customer.id,
    subject: "Proxy connection timing out",
    priority: "medium",
    status: "open",
  });
  app.save(ticket);
  const messages = app.findCachedCollectionByNameOrId("chat_messages");
  app.save(
    new Record(messages, {
      ticket_id: ticket.id,
      sender_id: customer.id,
      is_admin_message: false,
      message: "Hi, my UK residential proxy times out on about one request in ten since this morning. Can you take a look?",
    }),
  );
  app.save(
    new Record(messages, {
      ticket_id: ticket.id,
      sender_id: admin.id,
      is_admin_message: true,
      message: "Thanks for reporting this. We are rotating the exit node behind that gateway; it should be stable within the hour.",
    }),
  );
}

/**
 * Removes what seedDemo created (down migration).
 * @param {CoreApp} app
 * @param {DemoAccounts} accounts
 */
function unseedDemo(app, accounts) {
  for (const email of [accounts.customerEmail, accounts.adminEmail]) {
    try {
      // Cascades to balances, transactions, tickets, messages and affiliates.
      app.delete(app.findAuthRecordByEmail("users", email));
    } catch (_) {
      // already gone
    }
  }
  const filter = "username ~ {:prefix} || id ~ {:id}";
  for (const proxy of app.findRecordsByFilter("proxies", filter, "", 0, 0, {
    prefix: DEMO_USERNAME_PREFIX + "%",
    id: DEMO_ID_PREFIX + "%",
  })) {
    if (proxy) app.delete(proxy);
  }
}

module.exports = { seedDemo, unseedDemo, demoAccountsFromEnv };
