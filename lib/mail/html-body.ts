// The HTML body of a mail written as plain text: every character escaped, every http(s) URL a link, blank
// lines paragraphs, line breaks kept. A mail kind gets an HTML part without writing any HTML, and the
// HTML never says more (or other) than the text part.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

// A URL runs to the next space or character no URL contains unescaped; closing punctuation at its end
// ("... here: https://x/y.") belongs to the sentence.
const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/g;
const TRAILING = /[.,;:!?)\]]+$/;

function linkify(line: string): string {
  let html = "";
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING, "");
    html += escapeHtml(line.slice(last, match.index)) + `<a href="${escapeHtml(url)}" style="color:#4338ca">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(line.slice(last));
}

export function htmlFromText(text: string, title: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== "")
    .map((p) => `<p style="margin:0 0 16px">${p.split("\n").map(linkify).join("<br>")}</p>`);
  return [
    "<!doctype html>",
    '<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f8fafc;color:#0f172a;font:15px/1.5 -apple-system,Segoe UI,Helvetica,Arial,sans-serif">',
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;overflow-wrap:anywhere">',
    ...paragraphs,
    "</div></body></html>",
  ].join("\n");
}
