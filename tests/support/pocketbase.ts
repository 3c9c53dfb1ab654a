// A real PocketBase on a fresh temporary data dir, for API tests.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import PocketBase from "pocketbase";
import { startPocketBase, type PocketBaseProcess } from "../../server/pocketbase-process.ts";

export const SUPERUSER = { email: "superuser@test.local", password: "Superuser#Test2026" };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface TestPocketBase {
  url: string;
  dataDir: string;
  process: PocketBaseProcess;
  /** A fresh client with no auth. */
  client(): PocketBase;
  /** A fresh client signed in as the superuser. */
  superuser(): Promise<PocketBase>;
  stop(): Promise<void>;
}

export async function startTestPocketBase(env: Record<string, string> = {}): Promise<TestPocketBase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-test-pb-"));
  const process = await startPocketBase({
    dataDir,
    port: await freePort(),
    superuserEmail: SUPERUSER.email,
    superuserPassword: SUPERUSER.password,
    env,
  });
  const client = () => {
    const pb = new PocketBase(process.url);
    pb.autoCancellation(false);
    return pb;
  };
  return {
    url: process.url,
    dataDir,
    process,
    client,
    async superuser() {
      const pb = client();
      await pb.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      return pb;
    },
    async stop() {
      await process.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
