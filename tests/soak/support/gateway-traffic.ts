// Traffic through the proxy gateway for the gateway soak (issue #16): a loopback target that
// counts the bytes of every connection by the proxy that carried it, and raw-socket clients
// for the gateway's three ways in (plain HTTP forwarding and CONNECT on the HTTP port,
// SOCKS5 on its own port), each telling exactly how many payload bytes it sent and received.
//
// Through a tunnel (CONNECT, SOCKS5) the client and the target speak in lockstep: the client
// sends a frame `<proxy id> <n> <pad>\n` followed by <pad> bytes, the target answers n bytes,
// and the client sends the next frame only when all n arrived. So at most one frame per
// tunnel is in flight when the gateway cuts it, and what the gateway metered lies between
// what arrived at one end and what was sent from the other. A plain request is
// `GET http://<target>/<proxy id>/<n>`, answered with an HTTP response of n body bytes.
import { connect, createServer, type Server, type Socket } from "node:net";

// ---- The target ----------------------------------------------------------------------------

export interface TargetBytes {
  /** Bytes the target read from the gateway on connections of this proxy. */
  read: number;
  /** Bytes the target wrote towards the gateway on connections of this proxy. */
  written: number;
  /** Of `read`, what plain HTTP requests (forwarded by the gateway) were. */
  plainRead: number;
}

export interface CountingTarget {
  port: number;
  /** Per proxy id; bytes of connections closed before naming their proxy are in "". */
  bytes: Map<string, TargetBytes>;
  /** Connections still open. */
  open(): number;
  close(): Promise<void>;
}

const FRAME = /^([a-z0-9]+) (\d+) (\d+)\n/;

export async function countingTarget(): Promise<CountingTarget> {
  const bytes = new Map<string, TargetBytes>();
  const sockets = new Set<Socket>();
  const of = (id: string) => {
    let b = bytes.get(id);
    if (!b) bytes.set(id, (b = { read: 0, written: 0, plainRead: 0 }));
    return b;
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let proxy = "";
    let plain = false;
    let pending = Buffer.alloc(0);
    /** The frame being read: n bytes to answer once `pad` more bytes arrived. */
    let frame: { n: number; pad: number } | null = null;
    let read = 0;
    const send = (data: Buffer | string) => {
      const b = typeof data === "string" ? Buffer.from(data) : data;
      of(proxy).written += b.length;
      socket.write(b);
    };
    socket.on("error", () => undefined);
    socket.on("close", () => {
      sockets.delete(socket);
      const b = of(proxy);
      b.read += read;
      if (plain) b.plainRead += read;
    });
    socket.on("data", (chunk: Buffer) => {
      read += chunk.length;
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (frame) {
          const take = Math.min(frame.pad, pending.length);
          frame.pad -= take;
          pending = pending.subarray(take);
          if (frame.pad > 0) return;
          send(Buffer.alloc(frame.n, 0x7a)); // the whole frame is in: answer (lockstep)
          frame = null;
          continue;
        }
        if (pending.length === 0) return;
        if (pending.subarray(0, 4).toString() === "GET ") {
          if (pending.indexOf("\r\n\r\n") < 0) return;
          const match = /^GET \S*?\/([a-z0-9]+)\/(\d+) HTTP/.exec(pending.toString("latin1"));
          plain = true;
          proxy = match?.[1] ?? "";
          const n = Number(match?.[2] ?? 0);
          pending = Buffer.alloc(0);
          send(`HTTP/1.1 200 OK\r\nContent-Length: ${n}\r\nConnection: close\r\n\r\n`);
          send(Buffer.alloc(n, 0x79));
          socket.end();
          return;
        }
        const match = FRAME.exec(pending.toString("latin1", 0, Math.min(pending.length, 64)));
        if (!match) {
          if (pending.length > 64) socket.destroy(); // not our protocol
          return;
        }
        proxy = match[1]!;
        pending = pending.subarray(match[0].length);
        frame = { n: Number(match[2]), pad: Number(match[3]) };
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    bytes,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---- Clients ---------------------------------------------------------------------------------

/** A socket with a buffer of what arrived, read in whole pieces. */
class Wire {
  private buf = Buffer.alloc(0);
  closed = false;
  private wake: (() => void) | undefined;
  constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buf = Buffer.concat([this.buf, chunk]);
      this.wake?.();
    });
    const closed = () => {
      this.closed = true;
      this.wake?.();
    };
    socket.on("error", closed);
    socket.on("close", closed);
  }

  static open(port: number): Promise<Wire> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => resolve(new Wire(socket)));
      socket.once("error", reject);
    });
  }

  write(data: Buffer | string): void {
    if (!this.closed) this.socket.write(data);
  }

  /** Waits until `size(buf)` says how many bytes to take (>= 0), then takes them; null when closed first or after `timeoutMs`. */
  async take(size: (buf: Buffer) => number, timeoutMs = 15_000): Promise<Buffer | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const n = size(this.buf);
      if (n >= 0) {
        const out = this.buf.subarray(0, n);
        this.buf = this.buf.subarray(n);
        return out;
      }
      if (this.closed || Date.now() > deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
  }

  /** Bytes that arrived and were not taken. */
  get buffered(): number {
    return this.buf.length;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

export interface Creds {
  username: string;
  password: string;
}

export type Way = "plain" | "connect" | "socks";

/** Payload bytes a client moved (after the handshake), per proxy. */
export interface ClientBytes {
  /** Sent towards the target through the gateway. */
  sent: number;
  /** Received from the target through the gateway. */
  received: number;
}

const basic = (c: Creds) => `Basic ${Buffer.from(`${c.username}:${c.password}`).toString("base64")}`;

export interface Ports {
  http: number;
  socks: number;
  target: number;
}

/** One plain HTTP request for `n` bytes: served (a 200 with all n bytes) or not; `received` counts the whole answer. */
export async function plainRequest(
  ports: Ports,
  c: Creds,
  proxyId: string,
  n: number,
): Promise<{ served: boolean; received: number; sent: number; answer: string }> {
  const wire = await Wire.open(ports.http);
  const head = `GET http://127.0.0.1:${ports.target}/${proxyId}/${n} HTTP/1.1\r\nHost: 127.0.0.1:${ports.target}\r\nProxy-Authorization: ${basic(c)}\r\n\r\n`;
  wire.write(head);
  const all = await wire.take((b) => (wire.closed ? b.length : -1));
  wire.destroy();
  const text = all?.toString("latin1") ?? "";
  // "200 OK" is the target's answer (the gateway's own are refusals), relayed in part when cut.
  const fromTarget = text.startsWith("HTTP/1.1 200 OK\r\n");
  const served = fromTarget && all!.length - (text.indexOf("\r\n\r\n") + 4) === n;
  return { served, received: fromTarget ? all!.length : 0, sent: Buffer.byteLength(head), answer: describe(all) };
}

/** What came back, for failure reports: an HTTP status line and text, or SOCKS5 bytes in hex. */
function describe(data: Buffer | null): string {
  if (!data || data.length === 0) return "closed without an answer";
  const text = data.toString("latin1");
  return text.startsWith("HTTP/") ? JSON.stringify(text.slice(0, 200)) : data.toString("hex").slice(0, 64);
}

/** An open tunnel through the gateway (CONNECT or SOCKS5) to the counting target. */
export class Tunnel {
  constructor(
    private wire: Wire,
    readonly proxyId: string,
  ) {}

  /**
   * Opens a tunnel with `c`: null when the gateway refused (or closed). SOCKS5 sends its
   * greeting, authentication and request at once (the gateway reads them in turn).
   */
  static async open(ports: Ports, way: "connect" | "socks", c: Creds, proxyId: string): Promise<{ tunnel: Tunnel | null; answer: string }> {
    const wire = await Wire.open(way === "connect" ? ports.http : ports.socks);
    if (way === "connect") {
      wire.write(
        `CONNECT 127.0.0.1:${ports.target} HTTP/1.1\r\nHost: 127.0.0.1:${ports.target}\r\nProxy-Authorization: ${basic(c)}\r\n\r\n`,
      );
      const head = await wire.take((b) => {
        const at = b.indexOf("\r\n\r\n");
        return at < 0 ? -1 : at + 4;
      });
      if (!head?.toString("latin1").startsWith("HTTP/1.1 200 ")) {
        const rest = await wire.take((b) => (wire.closed ? b.length : -1), 2000);
        wire.destroy();
        return { tunnel: null, answer: describe(Buffer.concat([head ?? Buffer.alloc(0), rest ?? Buffer.alloc(0)])) };
      }
    } else {
      const u = Buffer.from(c.username);
      const p = Buffer.from(c.password);
      const t = ports.target;
      wire.write(
        Buffer.concat([
          Buffer.from([5, 1, 2, 1, u.length]),
          u,
          Buffer.from([p.length]),
          p,
          Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, t >> 8, t & 0xff]),
        ]),
      );
      const method = await wire.take((b) => (b.length >= 2 ? 2 : -1));
      const auth = method?.equals(Buffer.from([5, 2])) ? await wire.take((b) => (b.length >= 2 ? 2 : -1)) : null;
      const reply = auth?.equals(Buffer.from([1, 0])) ? await wire.take((b) => (b.length >= 10 ? 10 : -1)) : null;
      if (!reply || reply[1] !== 0) {
        wire.destroy();
        return {
          tunnel: null,
          answer: describe(Buffer.concat([method ?? Buffer.alloc(0), auth ?? Buffer.alloc(0), reply ?? Buffer.alloc(0)])),
        };
      }
    }
    return { tunnel: new Tunnel(wire, proxyId), answer: "" };
  }

  /**
   * One lockstep exchange: `pad` bytes up (with the frame's line), `n` bytes down. `sent` is
   * what was written, `received` what arrived (all n when served).
   */
  async exchange(n: number, pad: number): Promise<{ served: boolean; sent: number; received: number }> {
    const frame = Buffer.concat([Buffer.from(`${this.proxyId} ${n} ${pad}\n`), Buffer.alloc(pad, 0x78)]);
    if (this.wire.closed) return { served: false, sent: 0, received: 0 };
    this.wire.write(frame);
    const got = await this.wire.take((b) => (b.length >= n ? n : -1));
    if (got) return { served: true, sent: frame.length, received: n };
    return { served: false, sent: frame.length, received: this.wire.buffered };
  }

  get closed(): boolean {
    return this.wire.closed;
  }

  /** Ends the tunnel from the client's side and waits until it is closed. */
  async close(): Promise<void> {
    this.wire.socket.end();
    await this.wire.take((b) => (this.wire.closed ? b.length : -1), 5000);
    this.wire.destroy();
  }
}
