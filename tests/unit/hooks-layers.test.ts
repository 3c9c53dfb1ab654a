// The hooks depend one way (ARCHITECTURE.md "Layers in the hooks"): core ← domains ← routes.
// The test reads every require of pocketbase/pb_hooks and fails naming the files that break
// a rule; the synthetic graphs below prove each rule can fail.
import { describe, expect, it } from "vitest";
import { graphOf, layerViolations, readGraph } from "./support/require-graph.ts";

const HOOKS = "pocketbase/pb_hooks";

/** A hook file that requires each of `targets` (paths under pb_hooks). */
const requiring = (...targets: string[]) => targets.map((target) => `const m = require(\`\${__hooks}/${target}\`);`).join("\n") + "\n";

/** The files of a small shop: one core module, two domains, a view and a route file. */
const SHOP = {
  "lib/core/api.js": requiring("lib/catalog.json", "lib/facts.json"),
  "lib/money/ledger.js": requiring("lib/core/api.js"),
  "lib/proxies/purchase.js": requiring("lib/money/ledger.js", "lib/core/api.js"),
  "lib/api/lists.js": requiring("lib/proxies/purchase.js"),
  "proxies.pb.js": requiring("lib/proxies/purchase.js", "lib/api/lists.js"),
};

const violations = (files: Record<string, string>) => layerViolations(graphOf(files));

/** SHOP with `files` put in breaks exactly one rule, and its text holds each of `texts`. */
function expectOnlyViolation(files: Record<string, string>, ...texts: string[]): void {
  const found = violations({ ...SHOP, ...files });
  expect(found).toHaveLength(1);
  for (const text of texts) expect(found[0]).toContain(text);
}

describe("the hooks' layers", () => {
  const graph = readGraph(HOOKS);

  it("reads the hooks' requires", () => {
    expect(graph.files).toContain("lib/core/api.js");
    expect(graph.edges.length).toBeGreaterThan(100);
  });

  it("core requires no domain, no domain requires routes, domains depend one way, no file cycle", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it("a purchase reads one way: proxies → money → webhooks", () => {
    const folders = new Set(graph.edges.map((e) => `${e.from.split("/")[1]}>${e.to.split("/")[1]}`));
    expect(folders).toContain("proxies>money");
    expect(folders).toContain("money>webhooks");
    expect(folders).not.toContain("money>proxies");
    expect(folders).not.toContain("webhooks>money");
    expect(folders).not.toContain("webhooks>proxies");
  });
});

describe("the layer rules fail", () => {
  it("pass a shop that keeps them", () => {
    expect(violations(SHOP)).toEqual([]);
  });

  it("when core requires a domain or a route", () => {
    const found = violations({ ...SHOP, "lib/core/api.js": requiring("lib/money/ledger.js", "lib/api/lists.js") });
    expect(found.join("\n")).toContain("lib/core/api.js:1 requires lib/money/ledger.js: core requires only core");
    expect(found.join("\n")).toContain("lib/core/api.js:2 requires lib/api/lists.js: core requires only core");
  });

  it("when a domain requires a view of lib/api/ or a route file", () => {
    const found = violations({ ...SHOP, "lib/money/ledger.js": requiring("lib/api/lists.js", "proxies.pb.js") });
    expect(found.join("\n")).toContain("lib/money/ledger.js:1 requires lib/api/lists.js: a domain (money) never requires routes");
    expect(found.join("\n")).toContain("lib/money/ledger.js:2 requires proxies.pb.js: a domain (money) never requires routes");
  });

  it("when two domains require each other, naming the files both ways", () => {
    expectOnlyViolation(
      { "lib/money/refunds.js": requiring("lib/proxies/purchase.js") },
      "domains money, proxies require each other",
      "lib/money/refunds.js:1 requires lib/proxies/purchase.js",
      "lib/proxies/purchase.js:1 requires lib/money/ledger.js",
    );
  });

  it("when domains require each other around a longer loop", () => {
    const loop = ["lib/money/ledger.js", "lib/webhooks/queue.js", "lib/accounts/users.js", "lib/proxies/stock.js", "lib/core/api.js"];
    expectOnlyViolation(
      Object.fromEntries(loop.slice(0, -1).map((file, i) => [file, requiring(loop[i + 1]!)])),
      "domains accounts, money, proxies, webhooks require each other around a loop",
      "lib/webhooks/queue.js:1 requires lib/accounts/users.js",
    );
  });

  it("when files require each other, in one folder too", () => {
    const [ledger, payments] = ["lib/money/ledger.js", "lib/money/payments.js"];
    expectOnlyViolation({ [ledger]: requiring(payments), [payments]: requiring(ledger) }, `a file cycle: ${ledger}, ${payments}`);
  });

  it("when a require's target is not a path the graph can read, or does not exist", () => {
    const found = violations({
      ...SHOP,
      "lib/money/ledger.js":
        "const name = 'ledger';\nrequire(`${__hooks}/lib/money/${name}.js`);\nrequire(`${__hooks}/lib/money/gone.js`);\n",
    });
    expect(found.join("\n")).toContain("lib/money/ledger.js:2 has a require the layer test cannot read");
    expect(found.join("\n")).toContain("lib/money/ledger.js:3 requires lib/money/gone.js, which does not exist");
  });

  it("reads requires in code only, not in comments or strings", () => {
    const quiet = "// require(`${__hooks}/lib/api/lists.js`)\nconst help = \"run require('crypto')\";\n/* require(x) */\n";
    expect(violations({ ...SHOP, "lib/core/api.js": quiet })).toEqual([]);
  });
});
