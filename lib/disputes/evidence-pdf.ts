// The evidence pack printed (docs/disputes.md, "The evidence pack"): the signed document's facts as a PDF a card
// network's reviewer reads, made with pdf-lib and its standard fonts (no font files to ship). The PDF is a view of the
// document; the JWS beside it (printed at the end) is what proves it came from the service.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import type { EvidencePackDocument } from "./evidence-pack";

const PAGE = { width: 595, height: 842, margin: 48 }; // A4, in points
const SIZE = 9;
const LEADING = 12.5;
const WRAP = 92; // characters per line at 9 pt Courier across the page

/** The standard fonts encode WinAnsi only: anything else is shown as '?', never a crash. */
const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, "?");

function wrap(text: string): string[] {
  const lines: string[] = [];
  for (let rest = printable(text); ; rest = rest.slice(WRAP)) {
    lines.push(rest.slice(0, WRAP));
    if (rest.length <= WRAP) return lines;
  }
}

class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly pdf: PDFDocument,
    private readonly mono: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.newPage();
  }
  private newPage() {
    this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }
  private line(text: string, font: PDFFont, size: number) {
    if (this.y < PAGE.margin) this.newPage();
    this.page.drawText(text, { x: PAGE.margin, y: this.y, size, font, color: rgb(0, 0, 0) });
    this.y -= size + (LEADING - SIZE);
  }
  heading(text: string) {
    this.y -= 6;
    this.line(printable(text), this.bold, 12);
  }
  field(label: string, value: unknown) {
    if (value === null || value === undefined || value === "") return;
    const shown = typeof value === "string" ? value : JSON.stringify(value);
    for (const part of wrap(`${label}: ${shown}`)) this.line(part, this.mono, SIZE);
  }
  text(value: string) {
    for (const part of wrap(value)) this.line(part, this.mono, SIZE);
  }
}

export async function evidencePackPdf(document: EvidencePackDocument, jws: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Evidence pack for dispute ${document.dispute.id}`);
  pdf.setCreator(document.iss);
  pdf.setCreationDate(new Date(document.generatedAt));
  const w = new Writer(pdf, await pdf.embedFont(StandardFonts.Courier), await pdf.embedFont(StandardFonts.HelveticaBold));

  w.heading(`Evidence pack: dispute ${document.dispute.id}`);
  w.field("Issued by", document.iss);
  w.field("Generated at", document.generatedAt);
  w.field("Merchant", document.merchantId);
  w.field("Reason", document.dispute.reason);
  w.field("Disputed amount", `${document.dispute.amount} ${document.dispute.currency} (minor units)`);
  w.field("Opened at", document.dispute.openedAt);

  const p = document.payment;
  w.heading("Payment");
  w.field("PaymentIntent", p.paymentIntentId);
  w.field("Order", p.orderId);
  w.field("Amount captured", `${p.amount} ${p.currency}; refunded ${p.amountRefunded}`);
  w.field("Source", p.source);
  w.field("Protocol", p.protocol);
  w.field("Payer", p.payer);
  w.field("Captured at", p.capturedAt);
  w.field("Disputable through a card network", p.disputableThroughNetwork ? "yes" : "no (on-chain, final)");

  w.heading("Signed receipt");
  w.field("Receipt PaymentIntent", document.receipt.paymentIntentId);
  w.field("Signing key (kid)", document.receipt.kid);
  w.field("Verify against", document.receipt.jwksUrl);
  w.field("Receipt JWS", document.receipt.jws);

  if (document.agent) {
    const a = document.agent;
    w.heading("Verified agent");
    w.field("Network", a.network);
    w.field("Protocol", a.protocol);
    w.field("Agent key id", a.keyid);
    w.field("Agent key (registered)", a.agentKeyId);
    w.field("Agent name", a.agentName);
    w.field("Operator", a.operator);
    w.field("Signature tag", a.signature.tag);
    w.field("Signature nonce", a.signature.nonce);
    w.field("Credential", a.credentialId);
    w.field("Verified", a.verified ? `yes, at ${a.verifiedAt}` : "no");
  }
  if (document.ap2) {
    w.heading("AP2 mandates");
    w.field("CartMandate jti", document.ap2.cartMandate.jti);
    w.field("Cart id", document.ap2.cartMandate.cartId);
    w.field("Cart hash", document.ap2.cartMandate.cartHash);
    w.field("Merchant signature kid", document.ap2.cartMandate.merchantSignatureKid);
    w.field("PaymentMandate id", document.ap2.paymentMandate.id);
    w.field("Paid at", document.ap2.paymentMandate.usedAt);
    w.field("User authorization", document.ap2.userAuthorization ?? "none sent");
  }
  if (document.x402) {
    w.heading("x402 authorization");
    for (const [label, value] of Object.entries(document.x402)) w.field(label, value);
  }
  if (document.acp) {
    w.heading("ACP checkout session");
    w.field("Session", document.acp.sessionId);
    w.field("Status", document.acp.status);
    for (const step of document.acp.trace) w.field(step.step, step.at);
  }
  if (document.delivery) {
    w.heading("What was delivered");
    for (const [label, value] of Object.entries(document.delivery)) w.field(label, value);
  }
  w.heading("Events and webhook deliveries");
  for (const event of document.events) w.text(`${event.createdAt} ${event.type} ${event.id}`);
  for (const d of document.webhookDeliveries)
    w.text(`${d.eventType} -> ${d.url}: ${d.status}, ${d.attempts} attempt(s), last ${d.lastAttempt?.responseStatus ?? "-"}`);

  w.heading("Signature of this pack (compact JWS, ES256)");
  w.text(jws);
  return pdf.save();
}
