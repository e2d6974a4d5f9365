// The dashboard's search field (a plain GET form to /dashboard/search: works before hydration too).
export function SearchBox() {
  return (
    <form action="/dashboard/search" role="search" className="mb-3">
      <label htmlFor="dashboard-search" className="sr-only">
        Search by id, email or description
      </label>
      <input
        id="dashboard-search"
        name="q"
        type="search"
        placeholder="Search…"
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-2 focus:outline-indigo-600"
      />
    </form>
  );
}
