// The e2e server's mail goes here (playwright.config.ts starts it as a webServer beside the app, and the app
// gets SMTP_URL=smtp://127.0.0.1:<SMTP_SINK_PORT>): a real SMTP server (tests/helpers/smtp.ts: smtp-server,
// every message parsed with mailparser) whose mails the specs read over a tiny HTTP endpoint on
// SMTP_SINK_HTTP_PORT (e2e/support/mail.ts):
//   GET /health                 200 "ok"
//   GET /mails?to=address       the mails to the address (all without ?to=), oldest first, as JSON
//   POST /refuse {code,times?,to?}  answer RCPT TO with an SMTP error (see TestSmtp.refuse); POST /accept undoes it
// Run: node --import tsx e2e/support/smtp-sink.ts
import http from "node:http";
import { startTestSmtp } from "../../tests/helpers/smtp";

const smtpPort = Number(process.env.SMTP_SINK_PORT ?? 2525);
const httpPort = Number(process.env.SMTP_SINK_HTTP_PORT ?? 2526);

const smtp = await startTestSmtp({ port: smtpPort });

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://sink");
  const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (req.method === "GET" && url.pathname === "/health") return void res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  if (req.method === "GET" && url.pathname === "/mails") return json(200, smtp.mails({ to: url.searchParams.get("to") ?? undefined }));
  if (req.method === "POST" && (url.pathname === "/refuse" || url.pathname === "/accept")) {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (url.pathname === "/accept") smtp.acceptAll();
      else smtp.refuse(JSON.parse(body || "{}"));
      json(200, { ok: true });
    });
    return;
  }
  json(404, { error: "not found" });
});
server.listen(httpPort, "127.0.0.1", () =>
  console.log(`SMTP sink: SMTP on 127.0.0.1:${smtpPort}, mails on http://127.0.0.1:${httpPort}/mails`),
);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    server.close();
    void smtp.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2_000).unref();
  });
