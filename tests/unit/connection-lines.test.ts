// The lines a customer copies to use a proxy (src/lib/connection-lines.ts): the ports by
// protocol (and the fallback for answers without `ports`), the plain and URL lines (IPv6 in
// brackets, credentials percent-encoded), and a curl command that works as written: run by
// a real shell and a real curl through a local HTTP proxy and a local SOCKS5 server that
// check the credentials byte for byte.
import { spawn } from "node:child_process";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  colonLine,
  connectionLines,
  curlCommand,
  httpsUrl,
  httpUrl,
  masked,
  PASSWORD_MASK,
  portsLabel,
  proxyPorts,
  shellWord,
  socksUrl,
  urlCredential,
  type Connectable,
} from "@/lib/connection-lines";

const proxy = (over: Partial<Connectable> = {}): Connectable => ({
  host: "gw.example.com",
  port: 3128,
  type: "RESIDENTIAL",
  username: "u8f2k",
  password: "Secret1",
  ports: { http: 3128, socks5: 1080 },
  ...over,
});

describe("proxyPorts", () => {
  it("takes the server's ports", () => {
    expect(proxyPorts(proxy())).toEqual({ http: 3128, socks5: 1080 });
    expect(proxyPorts(proxy({ type: "SOCKS5", port: 1080, ports: { socks5: 1080 } }))).toEqual({ socks5: 1080 });
    expect(proxyPorts(proxy({ type: "HTTPS", ports: { http: 3128 } }))).toEqual({ http: 3128 });
  });

  it("reads an answer without ports from port and type: SOCKS5 on the SOCKS5 port, the rest on the HTTP port", () => {
    expect(proxyPorts({ type: "SOCKS5", port: 1080 })).toEqual({ socks5: 1080 });
    for (const type of ["HTTP", "HTTPS", "RESIDENTIAL", "DATACENTER"] as const) {
      expect(proxyPorts({ type, port: 8080 })).toEqual({ http: 8080 });
      expect(proxyPorts({ type, port: 8080, ports: null })).toEqual({ http: 8080 });
      expect(proxyPorts({ type, port: 8080, ports: {} })).toEqual({ http: 8080 });
    }
  });

  it("ignores a port that is not one", () => {
    expect(proxyPorts(proxy({ ports: { http: 3128, socks5: 0 } }))).toEqual({ http: 3128 });
    expect(proxyPorts(proxy({ port: 9000, ports: { http: 70000 } }))).toEqual({ http: 9000 });
  });

  it("labels them with their protocols", () => {
    expect(portsLabel(proxy())).toBe("HTTP 3128 · SOCKS5 1080");
    expect(portsLabel({ type: "SOCKS5", port: 1080 })).toBe("SOCKS5 1080");
    expect(portsLabel({ type: "HTTP", port: 3128 })).toBe("HTTP 3128");
  });
});

describe("the lines", () => {
  it("writes host:port:user:pass, the http:// and socks5h:// URLs on their own ports", () => {
    const p = proxy();
    expect(colonLine(p)).toBe("gw.example.com:3128:u8f2k:Secret1");
    expect(httpUrl(p)).toBe("http://u8f2k:Secret1@gw.example.com:3128");
    expect(socksUrl(p)).toBe("socks5h://u8f2k:Secret1@gw.example.com:1080");
  });

  it("offers only the protocols the type has", () => {
    const socks = proxy({ type: "SOCKS5", port: 1080, ports: { socks5: 1080 } });
    expect(httpUrl(socks)).toBeNull();
    expect(socksUrl(socks)).toBe("socks5h://u8f2k:Secret1@gw.example.com:1080");
    const https = proxy({ type: "HTTPS", ports: { http: 3128 } });
    expect(socksUrl(https)).toBeNull();
    expect(connectionLines(socks, "https://shop.example").map((l) => l.key)).toEqual(["colon", "socks5", "curl"]);
    expect(connectionLines(https, "https://shop.example").map((l) => l.key)).toEqual(["colon", "http", "curl"]);
    expect(connectionLines(proxy(), "https://shop.example").map((l) => l.key)).toEqual(["colon", "http", "socks5", "curl"]);
  });

  it("writes an IPv6 host in brackets", () => {
    const p = proxy({ host: "2001:db8::1" });
    expect(colonLine(p)).toBe("[2001:db8::1]:3128:u8f2k:Secret1");
    expect(httpUrl(p)).toBe("http://u8f2k:Secret1@[2001:db8::1]:3128");
    expect(socksUrl(p)).toBe("socks5h://u8f2k:Secret1@[2001:db8::1]:1080");
  });

  it("percent-encodes user and password in URLs (the plain line keeps them as they are)", () => {
    const p = proxy({ username: "me-session-a1", password: "p@s s:w/rd%!'(x)*&#?" });
    expect(urlCredential("p@s s:w/rd%!'(x)*&#?")).toBe("p%40s%20s%3Aw%2Frd%25%21%27%28x%29%2A%26%23%3F");
    expect(httpUrl(p)).toBe("http://me-session-a1:p%40s%20s%3Aw%2Frd%25%21%27%28x%29%2A%26%23%3F@gw.example.com:3128");
    expect(colonLine(p)).toBe("gw.example.com:3128:me-session-a1:p@s s:w/rd%!'(x)*&#?");
  });

  it("writes the curl command against the shop's IP-echo endpoint", () => {
    expect(curlCommand(proxy(), "https://shop.example")).toBe(
      "curl -x http://u8f2k:Secret1@gw.example.com:3128 https://shop.example/api/ip",
    );
    expect(curlCommand(proxy({ type: "SOCKS5", ports: { socks5: 1080 } }), "https://shop.example/")).toBe(
      "curl --socks5-hostname u8f2k:Secret1@gw.example.com:1080 https://shop.example/api/ip",
    );
    expect(curlCommand(proxy({ host: "::1" }), "http://[::1]:4321")).toBe(
      "curl -g -x 'http://u8f2k:Secret1@[::1]:3128' 'http://[::1]:4321/api/ip'",
    );
  });

  it("masks the password of a line on screen, whatever encoding or quoting the line gives it", () => {
    const p = proxy({ password: "p@s s'" });
    expect(masked(p, colonLine)).toBe(`gw.example.com:3128:u8f2k:${PASSWORD_MASK}`);
    expect(masked(p, (q) => curlCommand(q, "https://shop.example"))).toBe(
      `curl -x http://u8f2k:${PASSWORD_MASK}@gw.example.com:3128 https://shop.example/api/ip`,
    );
    const lines = connectionLines(p, "https://shop.example");
    for (const line of lines) {
      expect(line.masked).not.toContain("p@s");
      expect(line.masked).toContain(PASSWORD_MASK);
    }
    expect(lines.find((l) => l.key === "socks5")?.value).toBe("socks5h://u8f2k:p%40s%20s%27@gw.example.com:1080");
  });

  it("gives a proxy with the HTTPS port an https:// line (issue #28), and none to one without", () => {
    const tls = proxy({ type: "HTTPS", ports: { http: 3128, https: 3129 } });
    expect(httpsUrl(tls)).toBe("https://u8f2k:Secret1@gw.example.com:3129");
    expect(portsLabel(tls)).toBe("HTTP 3128 · HTTPS 3129");
    expect(connectionLines(tls, "https://shop.example").map((l) => l.key)).toEqual(["colon", "http", "https", "curl"]);
    expect(connectionLines(tls, "https://shop.example").find((l) => l.key === "https")?.masked).toBe(
      `https://u8f2k:${PASSWORD_MASK}@gw.example.com:3129`,
    );
    expect(httpsUrl(proxy({ type: "HTTP", ports: { http: 3128 } }))).toBeNull();
  });

  it("quotes a shell word only when it must", () => {
    expect(shellWord("http://a:b@h:1")).toBe("http://a:b@h:1");
    expect(shellWord("a b")).toBe("'a b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});

// ---- The curl command, run ------------------------------------------------------------

const TRICKY = { username: "me-session-a1", password: "p@s s:w/rd%!'(x)*&#?$`\"\\~" };

interface Seen {
  http: string[];
  socks: string[];
}

const listen = (server: net.Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));

/** The shop's echo stand-in: answers "echo <path>" to whoever asks. */
function startTarget(): http.Server {
  return http.createServer((req, res) => res.end(`echo ${req.url}\n`));
}

/** An HTTP proxy that forwards only requests with TRICKY's Basic credentials (407 otherwise). */
function startHttpProxy(seen: Seen): http.Server {
  return http.createServer((req, res) => {
    const auth = req.headers["proxy-authorization"] ?? "";
    const decoded = Buffer.from(auth.replace(/^Basic /, ""), "base64").toString("utf8");
    seen.http.push(decoded);
    if (decoded !== `${TRICKY.username}:${TRICKY.password}`) {
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? "");
    http.get({ host: target.hostname, port: target.port, path: target.pathname }, (up) => up.pipe(res)).on("error", () => res.destroy());
  });
}

/** A SOCKS5 server (RFC 1928 CONNECT, RFC 1929 auth) that accepts only TRICKY's credentials. */
function startSocksServer(seen: Seen): net.Server {
  return net.createServer((socket) => {
    let buf = Buffer.alloc(0);
    let stage: "greeting" | "auth" | "request" | "done" = "greeting";
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === "greeting" && buf.length >= 2 && buf.length >= 2 + buf[1]!) {
        buf = buf.subarray(2 + buf[1]!);
        socket.write(Buffer.from([5, 2]));
        stage = "auth";
      }
      if (stage === "auth" && buf.length >= 2) {
        const ulen = buf[1]!;
        if (buf.length < 3 + ulen) return;
        const plen = buf[2 + ulen]!;
        if (buf.length < 3 + ulen + plen) return;
        const user = buf.subarray(2, 2 + ulen).toString("utf8");
        const pass = buf.subarray(3 + ulen, 3 + ulen + plen).toString("utf8");
        buf = buf.subarray(3 + ulen + plen);
        seen.socks.push(`${user}:${pass}`);
        const ok = user === TRICKY.username && pass === TRICKY.password;
        socket.write(Buffer.from([1, ok ? 0 : 1]));
        if (!ok) return void socket.end();
        stage = "request";
      }
      if (stage === "request" && buf.length >= 5) {
        // Only domain names (ATYP 3): socks5h lets the server resolve them.
        if (buf[3] !== 3) return void socket.end(Buffer.from([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]));
        const len = buf[4]!;
        if (buf.length < 5 + len + 2) return;
        const host = buf.subarray(5, 5 + len).toString("utf8");
        const port = buf.readUInt16BE(5 + len);
        const rest = buf.subarray(7 + len);
        stage = "done";
        socket.removeAllListeners("data");
        const upstream = net.connect(port, host === "localhost" ? "127.0.0.1" : host, () => {
          socket.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          if (rest.length) upstream.write(rest);
          socket.pipe(upstream).pipe(socket);
        });
        upstream.on("error", () => socket.destroy());
      }
    });
  });
}

function run(command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the curl command, run by sh and curl", () => {
  const seen: Seen = { http: [], socks: [] };
  const target = startTarget();
  const httpProxy = startHttpProxy(seen);
  const socks = startSocksServer(seen);
  let ports = { target: 0, http: 0, socks: 0 };

  beforeAll(async () => {
    ports = { target: await listen(target), http: await listen(httpProxy), socks: await listen(socks) };
  });
  afterAll(() => {
    for (const server of [target, httpProxy, socks]) server.close();
  });

  const origin = () => `http://localhost:${ports.target}`;

  it("reaches the IP-echo endpoint through the HTTP port with a password full of shell and URL characters", async () => {
    const p = proxy({
      host: "127.0.0.1",
      type: "DATACENTER",
      ...TRICKY,
      port: ports.http,
      ports: { http: ports.http, socks5: ports.socks },
    });
    const result = await run(`${curlCommand(p, origin())} -sS`);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("echo /api/ip\n");
    expect(seen.http.at(-1)).toBe(`${TRICKY.username}:${TRICKY.password}`);
  });

  it("reaches it through the SOCKS5 port for a SOCKS5 proxy (--socks5-hostname)", async () => {
    const p = proxy({ host: "127.0.0.1", type: "SOCKS5", ...TRICKY, port: ports.socks, ports: { socks5: ports.socks } });
    const command = curlCommand(p, origin());
    expect(command).toContain("--socks5-hostname");
    const result = await run(`${command} -sS`);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("echo /api/ip\n");
    expect(seen.socks.at(-1)).toBe(`${TRICKY.username}:${TRICKY.password}`);
  });

  it("the socks5h:// URL works too, and wrong credentials do not", async () => {
    const p = proxy({ host: "127.0.0.1", ...TRICKY, port: ports.http, ports: { http: ports.http, socks5: ports.socks } });
    const ok = await run(`curl -sS -x ${shellWord(socksUrl(p)!)} ${origin()}/api/ip`);
    expect(ok.stdout).toBe("echo /api/ip\n");
    const wrong = await run(`${curlCommand({ ...p, password: "nope" }, origin())} -sS -o /dev/null -w '%{http_code}'`);
    expect(wrong.stdout).toBe("407");
  });
});
