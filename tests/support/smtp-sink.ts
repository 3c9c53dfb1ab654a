// The SMTP sink for tests: a real SMTP server on loopback (server/mail-sink.ts) plus a
// tiny HTTP mailbox (GET /messages) so Playwright workers, which run in other
// processes, can read what PocketBase sent.
import http from "node:http";
import { signInCode, startMailSink, type CapturedMail, type MailSink } from "../../server/mail-sink.ts";

export type { CapturedMail };

export interface TestMailbox {
  sink: MailSink;
  /** Base URL of the HTTP mailbox. */
  url: string;
  stop(): Promise<void>;
}

export async function startTestMailbox(): Promise<TestMailbox> {
  const sink = await startMailSink();
  const server = http.createServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/messages")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(sink.messages));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    sink,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sink.stop();
    },
  };
}

/** The SMTP environment that points PocketBase at a sink. */
export function smtpEnv(sink: MailSink): Record<string, string> {
  return {
    SMTP_HOST: sink.host,
    SMTP_PORT: String(sink.port),
    SMTP_TLS: "false",
    MAIL_FROM: "no-reply@proxyshop.test",
    MAIL_FROM_NAME: "ProxyShop",
  };
}

/** Waits for the newest mail to `to` whose subject matches, from an in-process sink or a mailbox URL. */
export async function waitForMail(
  source: MailSink | string,
  to: string,
  subject: RegExp,
  options: { after?: number; timeoutMs?: number } = {},
): Promise<CapturedMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const after = options.after ?? 0;
  while (Date.now() < deadline) {
    const all: CapturedMail[] =
      typeof source === "string" ? ((await (await fetch(`${source}/messages`)).json()) as CapturedMail[]) : source.messages;
    const found = all.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject) && Date.parse(m.receivedAt) >= after).pop();
    if (found) return found;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`No mail to ${to} matching ${subject} arrived`);
}

/** The sign-in code in a mail PocketBase sent. */
export function codeFrom(mail: CapturedMail): string {
  const code = signInCode(mail.text);
  if (!code) throw new Error(`No code in mail: ${mail.text}`);
  return code;
}

/** The token of a link to the web app (…/reset-password?token=…). */
export function linkFrom(mail: CapturedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s"()]*${path.replace(/[/?]/g, "\\$&")}[^\\s"()]*`).exec(mail.text);
  if (!match) throw new Error(`No ${path} link in mail: ${mail.text}`);
  return match[0];
}
