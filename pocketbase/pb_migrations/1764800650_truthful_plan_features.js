// @ts-check
// The starting plans promised what the gateway did not do (issue #28): sticky sessions "up
// to 30 minutes" (the gateway takes 1-1440), "5 countries" whatever the stock, "UDP
// support" and "TLS to the proxy" before the gateway had them, a dedicated account manager. A plan whose features are still exactly the ones first
// seeded gets the current ones (lib/default-plans.json, numbers read from the facts they
// name); a plan an admin has edited is left as it is.

const FIRST_SEEDED = {
  "Datacenter Starter": [
    "Dedicated IPv4 address",
    "Unlimited bandwidth",
    "HTTP, HTTPS and SOCKS5",
    "Up to 1 Gbps port speed",
    "5 countries",
  ],
  "Residential Pro": [
    "Real household IPs",
    "City-level targeting",
    "Sticky sessions up to 30 minutes",
    "99.9% success rate",
    "Priority support", // "24/7 priority support" until 1764500700
  ],
  "SOCKS5 Private": ["Private SOCKS5 endpoint", "Username and password auth", "IP whitelisting", "UDP support", "No traffic logs"],
  "HTTPS Business": [
    "TLS to the proxy",
    "Static IP for 30 days",
    "Per-proxy credentials",
    "Audit-ready usage logs",
    "Dedicated account manager",
  ],
};

/**
 * Sets each plan named in `from` whose features are exactly its list there to its list in `to`.
 * @param {CoreApp} app
 * @param {Record<string, string[]>} from
 * @param {Record<string, string[]>} to
 */
function replaceFeatures(app, from, to) {
  for (const [name, old] of Object.entries(from)) {
    const next = to[name];
    if (!next) continue;
    for (const row of app.findRecordsByFilter("pricing_plans", "name = {:name}", "", 0, 0, { name })) {
      if (row && JSON.stringify(JSON.parse(row.getString("features") || "[]")) === JSON.stringify(old)) {
        row.set("features", next);
        app.save(row);
      }
    }
  }
}

/** @returns {Record<string, string[]>} */
function current() {
  /** @type {{ name: string, features: string[] }[]} */
  const plans = require(`${__hooks}/lib/default-plans.json`);
  return Object.fromEntries(plans.map((p) => [p.name, p.features]));
}

migrate(
  (app) => replaceFeatures(app, FIRST_SEEDED, current()),
  (app) => replaceFeatures(app, current(), FIRST_SEEDED),
);
