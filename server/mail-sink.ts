// A real SMTP server on loopback that keeps every message in memory instead of
// delivering it. The embedded default (`npm start`) and the tests point PocketBase's SMTP
// settings at it, so sign-in codes and password links can be read without a mail provider.
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** Plain text of the message (the HTML part with tags stripped when there is no text part). */
  text: string;
  html: string;
  receivedAt: string;
}

export interface MailSink {
  host: string;
  port: number;
  messages: CapturedMail[];
  stop(): Promise<void>;
}

export interface MailSinkOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  onMail?: (mail: CapturedMail) => void;
  /** Keep at most this many messages (oldest dropped). */
  keep?: number;
}

export async function startMailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const host = options.host ?? "127.0.0.1";
  const keep = options.keep ?? 500;
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // PocketBase's client upgrades to STARTTLS when offered and would reject a self-signed cert.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 5 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const mail = parseMail(Buffer.concat(chunks).toString("utf8"));
        mail.from ||= session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        mail.to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push(mail);
        if (messages.length > keep) messages.shift();
        options.onMail?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  server.on("error", (err: Error) => console.error("[mail-sink]", err.message));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  return {
    host,
    port,
    messages,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// --- a small MIME reader: enough for the mails PocketBase writes ---------------------

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? "" : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = part.body.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
    try {
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, "%25"));
    } catch {
      return bytes;
    }
  }
  return part.body;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=). */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_, _charset: string, kind: string, text: string) => {
    if (kind.toUpperCase() === "B") return Buffer.from(text, "base64").toString("utf8");
    const qp = text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(qp, "latin1").toString("utf8");
  });
}

function leaves(part: Part): Part[] {
  const type = part.headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!/^multipart\//i.test(type) || !boundary) return [part];
  return part.body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith("--"))
    .flatMap((chunk) => leaves(splitPart(chunk.replace(/^\n/, ""))));
}

function htmlToText(html: string): string {
  return html
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gis, "$2 ($1)")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n")
    .trim();
}

function parseMail(raw: string): CapturedMail {
  const root = splitPart(raw);
  let text = "";
  let html = "";
  for (const leaf of leaves(root)) {
    const type = (leaf.headers.get("content-type") ?? "text/plain").toLowerCase();
    if (type.startsWith("text/html") && !html) html = decodeBody(leaf);
    else if (type.startsWith("text/plain") && !text) text = decodeBody(leaf);
  }
  return {
    from: decodeWords(root.headers.get("from") ?? ""),
    to: [],
    subject: decodeWords(root.headers.get("subject") ?? ""),
    text: text || htmlToText(html),
    html,
    receivedAt: new Date().toISOString(),
  };
}

/** The one-time sign-in code in a mail's text (the OTP template says "code is …"). */
export function signInCode(text: string): string | undefined {
  return /code is:?\s*(\d{4,10})/i.exec(text)?.[1];
}

/** The one-line summary `npm start` prints: the code or link a person needs. */
export function mailSummary(mail: CapturedMail): string {
  const code = signInCode(mail.text);
  const link = /(https?:\/\/\S+(?:reset-password|verify)\S*?)(?=[)\s]|$)/i.exec(mail.text)?.[1];
  const detail = code ? `code ${code}` : link ? link : "";
  return `[mail] to ${mail.to.join(", ")}: "${mail.subject}"${detail ? ` — ${detail}` : ""}`;
}
