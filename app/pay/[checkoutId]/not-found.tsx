// Unknown checkout id: a 404 page that says so plainly (and leaks nothing about other checkouts).
export default function CheckoutNotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 px-6 py-16">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Checkout not found</h1>
      <p className="text-slate-700">
        This payment link does not exist. Check the address, or ask the merchant for a new link. Nothing was charged.
      </p>
    </main>
  );
}
