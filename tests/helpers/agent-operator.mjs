// A foreign "agent operator" in its own process (tests/http/foreign-agents.http.test.ts): one loopback port per
// behaviour, each serving /.well-known/http-message-signatures-directory with an Ed25519 and an RSA-PSS key, the
// response signed by each key with the stock web-bot-auth `directoryResponseHeaders`, and counting its hits:
//   good   max-age=300; POST /rotate publishes one more Ed25519 key (answered: its private JWK)
//   short  max-age=1
//   badsig the directory's own signatures do not verify (one byte of each flipped)
//   slow   answers after 4 s
//   huge   answers 10 MiB
// GET /hits on any port: that port's directory fetches. Prints one JSON line: { ports, keys } (private JWKs).
import { createServer } from "node:http";
import { generateKeyPairSync } from "node:crypto";
import { directoryResponseHeaders, jwkToKeyID } from "web-bot-auth";
import { signerFromJWK, helpers } from "web-bot-auth/crypto";

const DIRECTORY = "/.well-known/http-message-signatures-directory";

function privateJwk(type) {
  const pair = type === "rsa" ? generateKeyPairSync("rsa", { modulusLength: 2048 }) : generateKeyPairSync("ed25519");
  return pair.privateKey.export({ format: "jwk" });
}

const publicOf = (jwk) => (jwk.kty === "RSA" ? { kty: "RSA", n: jwk.n, e: jwk.e } : { kty: "OKP", crv: "Ed25519", x: jwk.x });
const keyidOf = (jwk) => jwkToKeyID(publicOf(jwk), helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);

const keys = { ed25519: privateJwk("ed25519"), rsa: privateJwk("rsa") };
const published = [keys.ed25519, keys.rsa];

async function signedHeaders(host, jwks) {
  const signers = await Promise.all(
    jwks.map(async (jwk) => {
      const signer = await signerFromJWK(jwk.kty === "RSA" ? { ...jwk, alg: "PS512" } : jwk);
      signer.keyid = await keyidOf(jwk);
      return signer;
    }),
  );
  const now = new Date();
  return directoryResponseHeaders(
    { request: { method: "GET", url: `http://${host}${DIRECTORY}`, headers: {} }, response: { status: 200, headers: {} } },
    signers,
    { created: now, expires: new Date(now.getTime() + 300_000) },
  );
}

const flip = (signature) => signature.replace(/:([A-Za-z0-9+/])/g, (_m, c) => `:${c === "A" ? "B" : "A"}`);

function serve(mode) {
  let hits = 0;
  const server = createServer(async (req, res) => {
    if (req.url === "/hits") return res.end(JSON.stringify({ hits }));
    if (req.url === "/rotate" && req.method === "POST") {
      const added = privateJwk("ed25519");
      published.push(added);
      return res.end(JSON.stringify(added));
    }
    if (req.url !== DIRECTORY) return res.writeHead(404).end();
    hits++;
    if (mode === "slow") await new Promise((r) => setTimeout(r, 4_000));
    if (mode === "huge") {
      res.writeHead(200, { "content-type": "application/http-message-signatures-directory+json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 10; i++) res.write(chunk);
      return res.end();
    }
    const headers = await signedHeaders(req.headers.host, published);
    res.writeHead(200, {
      "content-type": "application/http-message-signatures-directory+json",
      "cache-control": `max-age=${mode === "short" ? 1 : 300}`,
      "signature-input": headers["Signature-Input"],
      signature: mode === "badsig" ? flip(headers.Signature) : headers.Signature,
    });
    res.end(JSON.stringify({ keys: published.map(publicOf) }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
}

const ports = {};
for (const mode of ["good", "short", "badsig", "slow", "huge"]) ports[mode] = await serve(mode);
process.stdout.write(`${JSON.stringify({ ports, keys })}\n`);
