// A link off the pay page to an address the merchant chose (successUrl, cancelUrl). Any merchant can set
// any host, so the page never goes there by itself: it names the host (as the browser will reach it:
// punycode, so a look-alike name shows) and waits for the payer's click. No Referer: the page's address
// holds the checkout id.
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function DestinationLink({ href, label, primary = false }: { href: string; label: string; primary?: boolean }) {
  const style = primary ? "bg-indigo-600 text-white hover:bg-indigo-700" : "border border-slate-300 text-slate-800 hover:bg-slate-50";
  return (
    <div className="space-y-1">
      <a
        href={href}
        rel="noopener noreferrer"
        className={`inline-flex items-center rounded-md px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${style}`}
      >
        {label}
      </a>
      <p className="text-xs text-slate-500">
        {"Goes to "}
        <span className="font-medium text-slate-700" data-testid="destination-host">
          {hostOf(href)}
        </span>
      </p>
    </div>
  );
}
