// A certificate authority made for one test run (@peculiar/x509 over node's WebCrypto) and an HTTPS server on
// 127.0.0.1 with a certificate it issued: the service under test trusts the CA through NODE_EXTRA_CA_CERTS (its
// file is `caFile`), so the HTTPS URLs the server answers are as good to it as a public site's.
import { webcrypto } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
// @peculiar/x509's dependency injection needs the Reflect metadata API before the library loads.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

const ALG = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };

export interface TestCa {
  /** A PEM file of the CA certificate, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** A server certificate for 127.0.0.1 and localhost, signed by the CA. */
  cert: string;
  key: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der)
    .toString("base64")
    .replace(/(.{64})/g, "$1\n");
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}

export async function makeTestCa(): Promise<TestCa> {
  const crypto = webcrypto as unknown as Crypto;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 86_400_000);
  const caKeys = (await crypto.subtle.generateKey(ALG, true, ["sign", "verify"])) as CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned(
    {
      name: "CN=Agent Payments Service test CA",
      keys: caKeys,
      notBefore,
      notAfter,
      signingAlgorithm: ALG,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const leafKeys = (await crypto.subtle.generateKey(ALG, true, ["sign", "verify"])) as CryptoKeyPair;
  const leaf = await x509.X509CertificateGenerator.create(
    {
      subject: "CN=127.0.0.1",
      issuer: ca.subject,
      publicKey: leafKeys.publicKey,
      signingKey: caKeys.privateKey,
      notBefore,
      notAfter,
      signingAlgorithm: ALG,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([
          { type: "ip", value: "127.0.0.1" },
          { type: "dns", value: "localhost" },
        ]),
        await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const dir = mkdtempSync(path.join(tmpdir(), "test-ca-"));
  const caFile = path.join(dir, "ca.pem");
  writeFileSync(caFile, ca.toString("pem"));
  const key = pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", leafKeys.privateKey));
  return { caFile, cert: leaf.toString("pem"), key };
}

export interface Served {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}

/** An HTTPS server answering each path from `routes` (404 otherwise), counting the requests per path. */
export async function startHttpsServer(ca: TestCa, routes: Map<string, Served>) {
  const hits = new Map<string, number>();
  const server = https.createServer({ cert: ca.cert, key: ca.key }, (req, res) => {
    const url = req.url ?? "/";
    hits.set(url, (hits.get(url) ?? 0) + 1);
    const route = routes.get(url);
    if (!route) return void res.writeHead(404).end("not found");
    res.writeHead(route.status ?? 200, { "Content-Type": "application/json", ...route.headers }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
