// @ts-check
// The content every installation starts with (production and tests alike): the site
// settings (pb_hooks/lib/default-settings.json, also the web app's defaults) and a
// starting set of plans. Admins change them in the console afterwards.

const PLANS = [
  {
    name: "Datacenter Starter",
    type: "DATACENTER",
    price_cents: 150,
    popular: false,
    features: ["Dedicated IPv4 address", "Unlimited bandwidth", "HTTP, HTTPS and SOCKS5", "Up to 1 Gbps port speed", "5 countries"],
  },
  {
    name: "Residential Pro",
    type: "RESIDENTIAL",
    price_cents: 450,
    popular: true,
    features: [
      "Real household IPs",
      "City-level targeting",
      "Sticky sessions up to 30 minutes",
      "99.9% success rate",
      "24/7 priority support",
    ],
  },
  {
    name: "SOCKS5 Private",
    type: "SOCKS5",
    price_cents: 300,
    popular: false,
    features: ["Private SOCKS5 endpoint", "Username and password auth", "IP whitelisting", "UDP support", "No traffic logs"],
  },
  {
    name: "HTTPS Business",
    type: "HTTPS",
    price_cents: 600,
    popular: false,
    features: ["TLS to the proxy", "Static IP for 30 days", "Per-proxy credentials", "Audit-ready usage logs", "Dedicated account manager"],
  },
];

migrate(
  (app) => {
    /** @type {Record<string, string>} */
    const SETTINGS = require(`${__hooks}/lib/default-settings.json`);
    const settings = app.findCollectionByNameOrId("settings");
    for (const [key, value] of Object.entries(SETTINGS)) {
      app.save(new Record(settings, { key, value }));
    }
    const plans = app.findCollectionByNameOrId("pricing_plans");
    for (const plan of PLANS) {
      app.save(new Record(plans, { ...plan, active: true }));
    }
  },
  (app) => {
    /** @type {Record<string, string>} */
    const SETTINGS = require(`${__hooks}/lib/default-settings.json`);
    for (const key of Object.keys(SETTINGS)) {
      const rows = app.findRecordsByFilter("settings", "key = {:key}", "", 1, 0, { key });
      for (const row of rows) if (row) app.delete(row);
    }
    for (const plan of PLANS) {
      const rows = app.findRecordsByFilter("pricing_plans", "name = {:name}", "", 0, 0, { name: plan.name });
      for (const row of rows) if (row) app.delete(row);
    }
  },
);
