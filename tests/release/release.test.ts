// The release file (issue #17, "One file"), run as a self-hoster would: the x64 file copied
// alone into an empty directory and run from there with an environment that holds nothing
// but a PATH with neither node nor go on it (an empty directory) and a HOME. It answers
// `version` and `help`, extracts its runtime folder beside the data dir on first run,
// serves the home page, /api/health and a sign-up (the mail sink prints the verification
// mail), and starts again from the extracted folder within the goal, removing an older
// build's folder; a SIGTERM while it starts stops PocketBase too. The arm64 file is checked
// for its architecture. Run by `npm run test:release`, which builds the release first
// (reusing dist/ and the Go builds). The journey on a real host is in release-host.test.ts.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SIZE_GOAL_BYTES } from "../../scripts/release.ts";
import { arm64, box, elfMachine, mb, run, serve, stopWhileStarting, useReleaseSandbox, version, x64 } from "./sandbox.ts";

/** Start to serving with the runtime folder already extracted (issue #17's goal, on this machine). */
const START_GOAL_MS = 5_000;

useReleaseSandbox();

describe("the release file", () => {
  it("has no node nor go on its PATH", () => {
    for (const tool of ["node", "go"]) {
      expect(spawnSync("/bin/sh", ["-c", `command -v ${tool}`], { env: box.env }).status).not.toBe(0);
    }
  });

  it("prints its version and its commands, and the files are for x86-64 and AArch64 within the size goal", () => {
    const printed = run(["version"]);
    expect(printed.code).toBe(0);
    expect(printed.output).toContain(`proxy-shop ${version} (linux-x64`);
    const help = run(["help"]);
    expect(help.code).toBe(0);
    for (const command of ["serve", "backup", "restore <zip|replica-url>", "admin create <email>", "doctor", "version", "help"]) {
      expect(help.output).toContain(`  ${command}`);
    }
    expect(help.output).not.toMatch(/\bnpm\b/);
    const unknown = run(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('Unknown command "frobnicate"');

    expect(elfMachine(x64)).toBe(62);
    expect(elfMachine(arm64)).toBe(183);
    for (const file of [x64, arm64]) {
      const size = statSync(file).size;
      console.log(`${path.basename(file)}: ${mb(size)} (goal ${mb(SIZE_GOAL_BYTES)})`);
      expect(size).toBeLessThanOrEqual(SIZE_GOAL_BYTES);
    }
    // Nothing extracted for those.
    expect(existsSync(path.join(box.dir, ".proxy-shop-runtime"))).toBe(false);
  });

  it("extracts its runtime beside the data, serves the shop and a sign-up, and starts again from the extracted files within the goal", async () => {
    const first = await serve();
    console.log(`First start (extracting): ${(first.startMs / 1000).toFixed(1)} s`);
    try {
      expect(first.output()).toContain(`proxy-shop ${version}, runtime files in`);
      expect(first.output()).toContain("Proxy shop is running at http://localhost:");
      expect(first.output()).not.toMatch(/\bnpm\b/);
      // The HTTPS proxy port's self-signed certificate, made on this first start (issue #28).
      expect(first.output()).toMatch(
        /HTTPS proxy \S+ \(self-signed, certificate \S+gateway-tls-cert\.pem, SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}\)/,
      );
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const runtimeParent = path.join(box.dir, ".proxy-shop-runtime");
    const [build] = readdirSync(runtimeParent);
    expect(build).toMatch(new RegExp(`^${version.replace(/\./g, "\\.")}-[0-9a-f]{12}$`));
    expect(existsSync(path.join(runtimeParent, build!, "pocketbase", "bin", "pocketbase"))).toBe(true);
    expect(existsSync(path.join(box.dir, "shop-data", "data.db"))).toBe(true);
    expect(existsSync(path.join(box.dir, ".secrets", "shop-data.credentials-key"))).toBe(true);

    // An older build's folder goes once this one is in place.
    mkdirSync(path.join(runtimeParent, "0.0.1-0000000-000000000000", "pocketbase"), { recursive: true });
    const shop = await serve();
    try {
      // Printed, not asserted: a shared CI machine under load takes longer (the lead decides).
      console.log(
        `Start to serving, already extracted: ${(shop.startMs / 1000).toFixed(1)} s (goal ${START_GOAL_MS / 1000} s: ${shop.startMs <= START_GOAL_MS ? "ok" : "over"}; load average ${os.loadavg()[0]!.toFixed(1)})`,
      );
      expect(shop.output()).not.toContain("Extracted proxy-shop");
      expect(readdirSync(runtimeParent)).toEqual([build]);

      const home = await fetch(`${shop.url}/`);
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain("<title>Premium Proxy Services");
      expect(html).toContain("Premium proxies for");

      const health = await fetch(`${shop.url}/api/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { code: number }).code).toBe(200);

      const email = `release-${Date.now()}@example.test`;
      const signup = await fetch(`${shop.url}/api/shop/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ first_name: "Rel", last_name: "Ease", email, country: "Chile", ref: "" }),
      });
      const body = (await signup.json()) as { token?: string; record?: { email?: string } };
      expect(signup.status, JSON.stringify(body)).toBe(200);
      expect(body.token).toBeTruthy();
      expect(body.record?.email).toBe(email);
      // The mail sink prints the verification mail to the console.
      await expect
        .poll(() => shop.output(), { timeout: 15_000 })
        .toMatch(new RegExp(`\\[mail\\] to ${email.replace(/\./g, "\\.")}: .*verify`, "i"));
    } finally {
      expect(await shop.stop()).toBe(0);
    }
    expect(await stopWhileStarting()).toEqual({ code: 0, pocketbaseAlive: false });
  });
});

describe("the release file's trusted folders", () => {
  it("finding 11: refuses a runtime folder or a credentials key file others may write to, saying how to fix it", () => {
    // The folder and the key the test above made.
    const runtime = path.join(box.dir, ".proxy-shop-runtime", readdirSync(path.join(box.dir, ".proxy-shop-runtime"))[0]!);
    chmodSync(runtime, 0o777);
    const doctor = run(["doctor"]);
    chmodSync(runtime, 0o700);
    expect(doctor.code, doctor.output).toBe(1);
    expect(doctor.output).toContain(`Refusing to go on: The runtime folder ${runtime} is writable by its group and every user (mode 0777)`);
    expect(doctor.output).toContain(`chmod -R go-w '${runtime}'`);

    const keyFile = path.join(box.dir, ".secrets", "shop-data.credentials-key");
    chmodSync(keyFile, 0o666);
    const serving = run(["serve", "--http", "127.0.0.1:1"]);
    const admin = run(["admin", "create", "owner@example.test"]);
    chmodSync(keyFile, 0o600);
    const refusal = `Refusing to go on: The credentials key file ${keyFile} is writable by its group and every user (mode 0666)`;
    expect(serving.code, serving.output).toBe(1);
    expect(serving.output).toContain(`The shop did not start: ${refusal}`);
    expect(admin.code, admin.output).toBe(1);
    expect(admin.output).toContain(refusal);
  });
});
