// The contract's facts are stated once: src/lib/api-contract/ defines them, `npm run openapi`
// writes pocketbase/pb_hooks/lib/facts.json from them (facts.ts), the hooks read that
// file through lib/core/facts.js and keep no copy of their own, and src reads the JSON it
// shares with the hooks through one module (lib/shared-data.ts).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACTIVITY_KINDS } from "@/lib/api-contract/activity";
import { API_KEY_SCOPES } from "@/lib/api-contract/define";
import { WEBHOOK_EVENTS } from "@/lib/api-contract/events";
import { contractFacts, type ContractFacts } from "@/lib/api-contract/facts";
import { PROXY_TYPES } from "@/lib/catalog";
import { hookModule } from "./support/hook-module.ts";

const FACTS_FILE = "pocketbase/pb_hooks/lib/facts.json";

/** Every file under `dir` whose name ends with one of `extensions`, with its text. */
function sources(dir: string, extensions: string[]): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext)))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .map((file) => ({ file, text: readFileSync(file, "utf8") }));
}

/** `file:line: text` of every line of `files` that matches `pattern`. */
function linesMatching(files: { file: string; text: string }[], pattern: RegExp): string[] {
  return files.flatMap(({ file, text }) =>
    text.split("\n").flatMap((line, i) => (pattern.test(line) ? [`${file}:${String(i + 1)}: ${line.trim()}`] : [])),
  );
}

describe("the facts file", () => {
  it("is what the contract makes (npm run openapi writes it)", () => {
    expect(JSON.parse(readFileSync(FACTS_FILE, "utf8"))).toEqual(JSON.parse(JSON.stringify(contractFacts())));
  });

  it("names every proxy type of the catalog, each with a port", () => {
    const { gateway_ports } = contractFacts();
    expect(Object.keys(gateway_ports.by_type)).toEqual([...PROXY_TYPES]);
    for (const ports of Object.values(gateway_ports.by_type)) expect(ports.length).toBeGreaterThan(0);
  });
});

describe("the hooks", () => {
  const facts = hookModule<{ facts(): ContractFacts }>("lib/core/facts.js").facts();

  it("read the contract's facts through lib/core/facts.js", () => {
    expect(facts.webhooks.events.map((event) => event.type)).toEqual(WEBHOOK_EVENTS);
    expect(facts.activity_kinds).toEqual(ACTIVITY_KINDS);
    expect(facts.api_keys.scopes).toEqual(API_KEY_SCOPES);
  });

  it("keep no copy of their own: none of the old constants, no list of events, kinds, scopes or ports", () => {
    const hooks = sources("pocketbase/pb_hooks", [".js"]);
    const oldNames =
      /\b(EVENTS|KINDS|SCOPES|MAX_KEYS|MAX_CAP_CENTS|MAX_ENDPOINTS|MAX_DESCRIPTION|MAX_BALANCE_LOW_CENTS|MAX_URL_LENGTH|HTTP_TYPES|SOCKS_TYPES|ALL_TYPES|DEFAULT_HTTP_PORT|DEFAULT_SOCKS_PORT)\b/;
    expect(linesMatching(hooks, oldNames)).toEqual([]);
    const lists = [
      /"purchase\.completed",\s*"proxy\.expiring"/,
      /"sign_in",\s*"password_changed"/,
      /"read",\s*"purchase",\s*"rotate"/,
      /\b(3128|1080|3129|1440)\b/,
    ];
    for (const list of lists) expect(linesMatching(hooks, list)).toEqual([]);
  });
});

describe("src", () => {
  const src = sources("src", [".ts", ".tsx", ".astro"]);

  it("has one list of proxy types (lib/catalog.ts) and one of webhook events (api-contract/events.ts)", () => {
    expect(linesMatching(src, /\bPROXY_TYPES\s*=/)).toEqual([expect.stringMatching(/^src\/lib\/catalog\.ts:/)]);
    expect(linesMatching(src, /\bWEBHOOK_EVENTS\s*=/)).toEqual([expect.stringMatching(/^src\/lib\/api-contract\/events\.ts:/)]);
    expect(linesMatching(src, /\bTYPE_ORDER\b/)).toEqual([]);
  });

  it("reads the JSON it shares with the hooks through lib/shared-data.ts only", () => {
    const imports = linesMatching(src, /\bfrom\s+["'][^"']*pocketbase\/pb_hooks\//);
    expect(imports.length).toBeGreaterThan(0);
    for (const line of imports) expect(line).toMatch(/^src\/lib\/shared-data\.ts:/);
  });
});
