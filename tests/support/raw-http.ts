// Raw HTTP on a real socket, with no client that decodes for us: the status, the headers
// and the bytes as they came over the wire, for checking content codings, ETags and 304s
// (public-serving.spec.ts, and tests/unit/public-serving-server.test.ts on its own servers).
import http from "node:http";

export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they came over the wire. */
  body: Buffer;
}

/** One request to `url` with exactly these headers; answers once the whole body is in. */
export function rawRequest(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
