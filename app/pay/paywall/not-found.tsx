// A paywall link naming no merchant of this service.
export default function PaywallMerchantNotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 px-6 py-16">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Merchant not found</h1>
      <p className="text-slate-700">This payment link names a merchant that does not exist. Ask for the link again. Nothing was charged.</p>
    </main>
  );
}
