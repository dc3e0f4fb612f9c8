import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** A throwaway self-signed certificate for `names` (made with the openssl command line), written into `dir`. */
export function selfSignedCert(dir: string, names: string[]): { keyFile: string; certFile: string; key: Buffer; cert: Buffer } {
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  const r = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      `/CN=${names[0]}`,
      "-addext",
      `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}`,
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return { keyFile, certFile, key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) };
}
