// Unknown order id: a plain 404 that leaks nothing about other orders.
export default function AcpOrderNotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 px-6 py-16">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Order not found</h1>
      <p className="text-slate-700">This order link does not exist. Check the address, or ask the merchant.</p>
    </main>
  );
}
