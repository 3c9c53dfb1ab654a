// An S3-compatible server on loopback for the backup tests (gofakes3, built from its Go
// module by scripts/build-test-tools.ts): Litestream's S3 replica and PocketBase's own S3
// backups are exercised against a real S3 protocol, kept in memory, gone when it stops.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../server/pocketbase-process.ts";
import { freePort } from "./pocketbase.ts";

export const FAKE_S3_MODULE = "github.com/johannesboyne/gofakes3/cmd/gofakes3@v1.2.0";
export const FAKE_S3_BIN = path.join(ROOT, "pocketbase", "bin", "gofakes3");

export interface FakeS3 {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  region: string;
  /** Credentials it accepts (it checks none; real services do, so clients must send some). */
  accessKey: string;
  secret: string;
  /** The keys stored under `prefix`, from its ListObjectsV2 answer. */
  keys(prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startFakeS3(bucket = "shop-backups"): Promise<FakeS3> {
  if (!existsSync(FAKE_S3_BIN)) {
    throw new Error(`${FAKE_S3_BIN} is missing: run \`npx tsx scripts/build-test-tools.ts\` (npm test does).`);
  }
  const port = await freePort();
  const child: ChildProcess = spawn(FAKE_S3_BIN, ["-host", `127.0.0.1:${port}`, "-backend", "memory", "-initialbucket", bucket, "-quiet"], {
    stdio: "ignore",
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${endpoint}/${bucket}?list-type=2`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("gofakes3 did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint,
    bucket,
    region: "us-east-1",
    accessKey: "test-access-key",
    secret: "test-secret-key",
    async keys(prefix = "") {
      const xml = await (await fetch(`${endpoint}/${bucket}?list-type=2&max-keys=1000&prefix=${encodeURIComponent(prefix)}`)).text();
      return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]!);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
