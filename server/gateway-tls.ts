// The gateway's HTTPS proxy port as the start banner names it: its certificate's file
// (GATEWAY_TLS_CERT, else the one the gateway makes for itself in the data dir on first
// start: pocketbase/gateway/tls.go) and that certificate's SHA-256 fingerprint, which a
// client of a self-signed port checks before it trusts it (curl --proxy-cacert FILE, or
// --proxy-insecure after comparing the fingerprint).
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

/** The file name pocketbase/gateway/tls.go gives its self-signed certificate (SelfSignedCertFile). */
export const SELF_SIGNED_CERT_FILE = "gateway-tls-cert.pem";

/** The certificate file the HTTPS port serves: GATEWAY_TLS_CERT, else the self-signed one in dataDir. */
export function gatewayCertFile(env: NodeJS.ProcessEnv, dataDir: string): string {
  return env["GATEWAY_TLS_CERT"]?.trim() || path.join(dataDir, SELF_SIGNED_CERT_FILE);
}

/** "AB:CD:..." (SHA-256 of the certificate, as openssl prints it), null when the file cannot be read. */
export function certFingerprint(file: string): string | null {
  try {
    return new X509Certificate(readFileSync(file)).fingerprint256;
  } catch {
    return null;
  }
}

/** The banner's words for the HTTPS port: where it listens, its certificate and fingerprint. */
export function httpsPortLine(env: NodeJS.ProcessEnv, dataDir: string, address: string): string {
  const file = gatewayCertFile(env, dataDir);
  const fingerprint = certFingerprint(file);
  const self = env["GATEWAY_TLS_CERT"]?.trim() ? "" : "self-signed, ";
  return `HTTPS proxy ${address} (${self}certificate ${file}${fingerprint ? `, SHA-256 ${fingerprint}` : ", not readable"})`;
}
