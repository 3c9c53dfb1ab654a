// Raw sockets against the proxy gateway (issue #16) for the hostile suite: bytes written as
// they are (no client library would send them), what came back and whether the gateway
// closed; a loopback target that counts every connection the gateway dials; slow clients
// that trickle a byte at a time; the PocketBase process's resident memory.
import { readFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";

export interface RawResult {
  /** Everything the gateway sent back. */
  data: Buffer;
  /** The gateway closed (or reset) the connection before `waitMs` ran out. */
  closed: boolean;
  /** Milliseconds from connecting until the close (or the give-up). */
  ms: number;
}

export interface RawOptions {
  /** Half-close after the last chunk (a truncated frame ends there). */
  end?: boolean;
  /** Connect from this loopback address (another client than 127.0.0.1). */
  from?: string;
  /** Give up (and destroy the socket) after this long without a close; default 5 s. */
  waitMs?: number;
}

/** Connects to the gateway on 127.0.0.1:`port`, writes `chunks`, and collects the answer until it closes. */
export function rawExchange(port: number, chunks: Buffer[], options: RawOptions = {}): Promise<RawResult> {
  const { end = false, waitMs = 5000, from } = options;
  return new Promise((resolve) => {
    const started = Date.now();
    const parts: Buffer[] = [];
    const socket = connect({ port, host: "127.0.0.1", ...(from ? { localAddress: from } : {}) });
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(parts), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on("data", (chunk: Buffer) => parts.push(chunk));
    // A reset (the gateway closed with our bytes unread) or a write after its close: closed.
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    socket.once("connect", () => {
      for (const chunk of chunks) if (!done) socket.write(chunk);
      if (end && !done) socket.end();
    });
  });
}

// ---- Frames ------------------------------------------------------------------------------

export const bytes = (...values: number[]): Buffer => Buffer.from(values);

/** RFC 1929: VER=1 ULEN UNAME PLEN PASSWD. */
export function socksAuth(username: string, password: string): Buffer {
  const u = Buffer.from(username);
  const p = Buffer.from(password);
  return Buffer.concat([bytes(1, u.length), u, bytes(p.length), p]);
}

/** RFC 1928 request: VER=5 CMD RSV=0 ATYP=1 (IPv4) 127.0.0.1 PORT. */
export function socksRequest(cmd: number, port: number, atyp = 1): Buffer {
  return bytes(5, cmd, 0, atyp, 127, 0, 0, 1, port >> 8, port & 0xff);
}

/** The greeting offering username/password only. */
export const SOCKS_GREETING = bytes(5, 1, 2);

/** A SOCKS5 reply with code `code` (the gateway answers BND.ADDR 0.0.0.0:0). */
export const socksReply = (code: number): Buffer => bytes(5, code, 0, 1, 0, 0, 0, 0, 0, 0);

export const basic = (username: string, password: string): string => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

/** The status of an HTTP answer ("HTTP/1.1 407 ..."), 0 when there is none. */
export function httpStatus(data: Buffer): number {
  const match = /^HTTP\/1\.[01] (\d{3}) /.exec(data.toString("latin1"));
  return match ? Number(match[1]) : 0;
}

/** The body of an HTTP answer (after the blank line). */
export function httpBody(data: Buffer): string {
  const text = data.toString("utf8");
  const at = text.indexOf("\r\n\r\n");
  return at < 0 ? "" : text.slice(at + 4);
}

// ---- A target that counts dials ------------------------------------------------------------

export interface DialCounter {
  port: number;
  /** Connections the target accepted so far (every one is a dial by the gateway). */
  hits(): number;
  close(): Promise<void>;
}

/**
 * A TCP server on 127.0.0.1 that counts every connection and answers anything it reads
 * with a short HTTP 200 (so a plain request through the gateway succeeds), then closes.
 */
export async function dialCounter(): Promise<DialCounter> {
  let hits = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    hits += 1;
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
    socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\nContent-Length: 14\r\nConnection: close\r\n\r\nfrom the target"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---- Slow clients --------------------------------------------------------------------------

export interface SlowClient {
  /** Milliseconds from connecting until the gateway closed it (Infinity: it never did). */
  closedAfterMs: number;
  /** What the gateway sent back meanwhile. */
  data: Buffer;
}

/**
 * `count` connections to `port`, each writing `prefix` and then one byte of `trickle` (cycled)
 * every `everyMs`, until the gateway closes it or `giveUpMs` passes (then destroyed,
 * closedAfterMs = Infinity). Connections are opened `batch` at a time, from the loopback
 * address `from` when given (127.0.0.2 is another client than 127.0.0.1).
 */
export async function slowClients(
  port: number,
  options: { count: number; prefix: Buffer; trickle: Buffer; everyMs: number; giveUpMs: number; batch?: number; from?: string },
): Promise<SlowClient[]> {
  const { count, prefix, trickle, everyMs, giveUpMs, batch = 200, from } = options;
  const one = () =>
    new Promise<SlowClient>((resolve) => {
      const parts: Buffer[] = [];
      const socket = connect({ port, host: "127.0.0.1", ...(from ? { localAddress: from } : {}) });
      let started = Date.now();
      let sent = 0;
      let done = false;
      let ticker: NodeJS.Timeout | undefined;
      const finish = (closedAfterMs: number) => {
        if (done) return;
        done = true;
        clearInterval(ticker);
        clearTimeout(giveUp);
        socket.destroy();
        resolve({ closedAfterMs, data: Buffer.concat(parts) });
      };
      const giveUp = setTimeout(() => finish(Infinity), giveUpMs);
      socket.on("data", (chunk: Buffer) => parts.push(chunk));
      socket.on("error", () => finish(Date.now() - started));
      socket.on("close", () => finish(Date.now() - started));
      socket.once("connect", () => {
        started = Date.now();
        if (prefix.length > 0) socket.write(prefix);
        ticker = setInterval(() => {
          if (!done) socket.write(trickle.subarray(sent % trickle.length, (sent++ % trickle.length) + 1));
        }, everyMs);
      });
    });
  const all: Promise<SlowClient>[] = [];
  for (let i = 0; i < count; i += batch) {
    for (let j = i; j < Math.min(count, i + batch); j++) all.push(one());
    await new Promise((r) => setTimeout(r, 20));
  }
  return Promise.all(all);
}

// ---- Memory ------------------------------------------------------------------------------------

/** Resident memory of process `pid` in bytes (VmRSS of /proc/<pid>/status). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}
