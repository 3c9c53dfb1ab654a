// A loopback webhook receiver for the API tests: it keeps every request it gets (path,
// headers, raw body) and answers each with the next status of its `plan` (then 200), so a
// test can make the shop's dispatcher retry. `until` polls for what it got (or a row).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

export interface ReceivedWebhook {
  /** When it arrived (ms since the epoch). */
  at: number;
  /** The request's path, e.g. "/hooks/…" (endpoints told apart by path). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as a signature is checked over it. */
  body: string;
}

export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  /** The statuses of the next answers, in order; 200 once it is empty. */
  plan: number[] = [];
  /** http://127.0.0.1:<port>, set by start(). */
  origin = "";
  /** The origin with the path /hooks. */
  url = "";
  private server: Server | null = null;

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.requests.push({ at: Date.now(), path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        const status = this.plan.shift() ?? 200;
        res.writeHead(status, { "Content-Type": "text/plain" }).end(status < 300 ? "ok" : "receiver is down");
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.url = `${this.origin}/hooks`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/**
 * Registers the hooks that start a receiver before the tests (of the file or describe) and
 * stop it after them; use its fields inside tests and hooks, not at collection time.
 */
export function useWebhookReceiver(): WebhookReceiver {
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(() => receiver.stop());
  return receiver;
}

/** A request's Standard Webhooks headers, as the standardwebhooks verifier takes them. */
export function signatureHeaders(received: ReceivedWebhook): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return {
    "webhook-id": String(received.headers["webhook-id"]),
    "webhook-timestamp": String(received.headers["webhook-timestamp"]),
    "webhook-signature": String(received.headers["webhook-signature"]),
  };
}

/** Polls `read` until `done` holds (5 s by default), answering the last value. */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}
