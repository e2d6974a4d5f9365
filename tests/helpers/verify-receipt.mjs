// A third party verifying a receipt (tests/http/receipts.http.test.ts): a process of its own, started with no
// DATABASE_URL and no service code, holding only the JWS (stdin), the address of the published keys and the issuer
// (argv). jose as anyone would use it: createRemoteJWKSet + jwtVerify. Prints one JSON line: { ok: true, kid,
// payload } or { ok: false, code, message }, and whether it could have reached a database at all.
import { createRemoteJWKSet, jwtVerify } from "jose";

const [jwksUrl, issuer] = process.argv.slice(2);
let jws = "";
for await (const chunk of process.stdin) jws += chunk;
const databaseUrl = process.env.DATABASE_URL ?? null;
try {
  const { payload, protectedHeader } = await jwtVerify(jws.trim(), createRemoteJWKSet(new URL(jwksUrl)), {
    issuer,
    algorithms: ["ES256", "EdDSA"],
  });
  console.log(JSON.stringify({ ok: true, kid: protectedHeader.kid, payload, databaseUrl }));
} catch (err) {
  console.log(JSON.stringify({ ok: false, code: err?.code ?? null, message: String(err?.message ?? err), databaseUrl }));
}
