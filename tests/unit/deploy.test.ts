// The deploy files (README "Deploy", deploy/): the systemd unit keeps its hardening, the
// settings template makes a real shop (not a developer's loopback one) that the start
// accepts, and the unit, the proxies' configs and the README's firewall line agree on the
// ports, paths and limits the shop needs. systemd-analyze verifies the unit where it exists.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from "@/components/support/schemas";
import { isLoopbackHost, startupProblems } from "../../server/start-checks.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

type Unit = Record<string, Record<string, string[]>>;

/** A unit file's sections and their settings (a key may repeat); comments and blank lines dropped. */
function parseUnit(text: string): Unit {
  const unit: Unit = {};
  let section: Record<string, string[]> | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = unit[header[1]!] ??= {};
      continue;
    }
    const eq = line.indexOf("=");
    if (!section || eq < 1) throw new Error(`Not a unit line: ${line}`);
    (section[line.slice(0, eq)] ??= []).push(line.slice(eq + 1));
  }
  return unit;
}

const UNIT_TEXT = read("deploy/proxy-shop.service");
const unit = parseUnit(UNIT_TEXT);
const service = unit["Service"] ?? {};
/** The one value of a [Service] key (the last one wins in systemd, and there must be one). */
const one = (key: string) => {
  expect(service[key], key).toHaveLength(1);
  return service[key]![0]!;
};

const env = parseEnv(read("deploy/proxy-shop.env"));
const PORT = env["PORT"];

describe("deploy/proxy-shop.service", () => {
  it("runs the release file as its own user on /var/lib/proxy-shop, with the settings file", () => {
    expect(one("User")).toBe("proxy-shop");
    expect(one("Group")).toBe("proxy-shop");
    expect(service["DynamicUser"]).toBeUndefined();
    expect(one("WorkingDirectory")).toBe("/var/lib/proxy-shop");
    expect(one("StateDirectory")).toBe("proxy-shop");
    expect(one("EnvironmentFile")).toBe("/etc/proxy-shop/env");
    expect(one("ExecStart")).toBe("/opt/proxy-shop/proxy-shop serve --data /var/lib/proxy-shop/shop-data");
    expect(one("Restart")).toBe("on-failure");
    expect(unit["Install"]?.["WantedBy"]).toEqual(["multi-user.target"]);
  });

  it("is hardened: read-only system, no home, private /tmp, no new privileges, no capabilities", () => {
    const hardening = { ProtectSystem: "strict", ProtectHome: "yes", PrivateTmp: "yes", NoNewPrivileges: "yes", PrivateDevices: "yes" };
    for (const [key, value] of Object.entries(hardening)) expect(one(key), key).toBe(value);
    expect(one("CapabilityBoundingSet")).toBe("");
    // Only commented out, for a gateway port below 1024.
    expect(service["AmbientCapabilities"]).toBeUndefined();
    expect(UNIT_TEXT).toContain("#AmbientCapabilities=CAP_NET_BIND_SERVICE");
    expect(Number(one("LimitNOFILE"))).toBeGreaterThanOrEqual(65536);
  });

  it("may write exactly where the shop writes: the data dir, the key and the runtime folder beside it", () => {
    expect(one("ReadWritePaths")).toBe("/var/lib/proxy-shop");
    const dataDir = /--data (\S+)/.exec(one("ExecStart"))?.[1] ?? "";
    // .secrets/ and .proxy-shop-runtime/ go beside the data dir, so its parent must be writable.
    expect(path.dirname(dataDir)).toBe(one("ReadWritePaths"));
    expect(one("WorkingDirectory")).toBe(one("ReadWritePaths"));
  });

  const analyze = spawnSync("systemd-analyze", ["--version"]).status === 0 && existsSync("/lib/systemd/system/multi-user.target");
  describe.skipIf(!analyze)("systemd-analyze verify", () => {
    const root = mkdtempSync(path.join(tmpdir(), "deploy-unit-"));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(path.join(root, "opt/proxy-shop"), { recursive: true });
    writeFileSync(path.join(root, "opt/proxy-shop/proxy-shop"), "#!/bin/sh\n");
    chmodSync(path.join(root, "opt/proxy-shop/proxy-shop"), 0o755);
    mkdirSync(path.join(root, "etc/systemd/system"), { recursive: true });
    mkdirSync(path.join(root, "usr/lib/systemd"), { recursive: true });
    cpSync("/lib/systemd/system", path.join(root, "usr/lib/systemd/system"), { recursive: true, dereference: false });
    const verify = (text: string) => {
      const file = path.join(root, "etc/systemd/system/proxy-shop.service");
      writeFileSync(file, text);
      const run = spawnSync("systemd-analyze", ["verify", "--man=no", `--root=${root}`, file], { encoding: "utf8" });
      return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
    };

    it("passes with no warning", () => {
      expect(verify(UNIT_TEXT)).toEqual({ status: 0, output: "" });
    });

    it("would report a mistyped setting (the check can fail)", () => {
      expect(verify(UNIT_TEXT.replace("ProtectHome=yes", "ProtectHome=yse")).output).toMatch(/Failed to parse protect home value/i);
    });
  });
});

describe("deploy/proxy-shop.env", () => {
  it("makes a real shop the start accepts: a public HOST with SMTP, an https APP_URL, the local proxy trusted", () => {
    const host = env["HOST"] ?? "";
    expect(isLoopbackHost(host)).toBe(false);
    expect(startupProblems(env, host)).toEqual([]);
    expect(env["SMTP_HOST"]).toBeTruthy();
    expect(env["MAIL_FROM"]).toBeTruthy();
    expect(new URL(env["APP_URL"] ?? "").protocol).toBe("https:");
    expect(env["TRUST_PROXY"]).toBe("127.0.0.1");
    expect(env["GATEWAY_HOST"]).toBe("0.0.0.0");
    // Neither the demo's loopback defaults nor a half-set Stripe.
    expect(env["DEMO_SEED"]).toBeUndefined();
    expect(env["PAYMENTS_TEST_MODE"]).toBeUndefined();
  });
});

describe("deploy/Caddyfile and deploy/nginx.conf", () => {
  const caddy = read("deploy/Caddyfile");
  const nginx = read("deploy/nginx.conf");
  const bodyNeeded = MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES;

  it("proxy to the web port of the settings file", () => {
    expect(caddy).toContain(`reverse_proxy 127.0.0.1:${PORT} {`);
    expect(nginx).toContain(`server 127.0.0.1:${PORT};`);
  });

  it("nginx: passes Host, the visitor's address and the scheme, streams /api/realtime, takes a support message's attachments", () => {
    expect(nginx).toContain("proxy_set_header Host $host;");
    expect(nginx).toContain("proxy_set_header X-Forwarded-For $remote_addr;");
    expect(nginx).toContain("proxy_set_header X-Forwarded-Proto $scheme;");
    const realtime = /location \/api\/realtime \{([^}]*)\}/.exec(nginx)?.[1] ?? "";
    expect(realtime).toContain("proxy_buffering off;");
    // Longer than PocketBase's 5-minute idle timeout for the stream.
    expect(Number(/proxy_read_timeout (\d+)s;/.exec(realtime)?.[1])).toBeGreaterThan(300);
    expect(Number(/client_max_body_size (\d+)m;/.exec(nginx)?.[1]) * 1024 * 1024).toBeGreaterThan(bodyNeeded);
  });

  it("Caddy: flushes the stream at once and takes a support message's attachments", () => {
    expect(caddy).toContain("flush_interval -1");
    expect(Number(/max_size (\d+)MB/.exec(caddy)?.[1]) * 1000 * 1000).toBeGreaterThan(bodyNeeded);
  });
});

describe("README Deploy", () => {
  const readme = read("README.md");
  const deploy = readme.slice(readme.indexOf("\n## Deploy\n"), readme.indexOf("\n## Test it\n"));

  it("opens the gateway's ports of the settings file in the firewall, and not the web port", () => {
    const ufw = deploy.split("\n").find((l) => l.startsWith("sudo ufw ")) ?? "";
    expect(ufw).toContain(`ufw allow ${env["GATEWAY_HTTP_PORT"]},${env["GATEWAY_SOCKS_PORT"]}/tcp`);
    expect(ufw).toContain(`ufw allow ${env["GATEWAY_HTTPS_PORT"]}/tcp`);
    expect(ufw).toContain("/udp"); // SOCKS5 UDP relay sockets
    expect(ufw).toContain("ufw allow 80,443/tcp");
    expect(ufw).not.toContain(String(PORT));
  });

  it("installs the files deploy/ holds, where the unit expects them", () => {
    expect(deploy).toContain("sudo install -D -m 600 deploy/proxy-shop.env /etc/proxy-shop/env");
    expect(deploy).toContain("sudo install -m 644 deploy/proxy-shop.service /etc/systemd/system/");
    expect(deploy).toContain(`/opt/proxy-shop/proxy-shop\n`);
    expect(deploy).toContain("-p EnvironmentFile=/etc/proxy-shop/env --working-directory=/var/lib/proxy-shop");
  });
});
