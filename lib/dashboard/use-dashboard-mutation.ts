"use client";
// A dashboard mutation: react-query around dashboardFetch, a toast on success and on failure, and a
// refetch on success (the server-rendered page via router.refresh(), plus any react-query keys given).
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useToast } from "../../components/dashboard/useToast";
import { dashboardFetch, DashboardRequestError } from "./client";

export interface DashboardMutationOptions<V, R> {
  /** The dashboard route, fixed or from the variables. */
  path: string | ((variables: V) => string);
  method?: "POST" | "PATCH" | "DELETE";
  /** The body sent (default: the variables themselves). */
  body?: (variables: V) => unknown;
  /** Toast text on success (none when omitted). */
  success?: string | ((result: R, variables: V) => string);
  /** Toast the error message too (default true); the error is returned by the hook either way. */
  toastErrors?: boolean;
  /** react-query keys to refetch on success. */
  invalidate?: QueryKey[];
  /** Re-render the server components of the page on success (default true). */
  refresh?: boolean;
  onSuccess?: (result: R, variables: V) => void;
}

export function useDashboardMutation<V = void, R = unknown>(options: DashboardMutationOptions<V, R>) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return useMutation<R, DashboardRequestError, V>({
    mutationFn: (variables) =>
      dashboardFetch<R>(typeof options.path === "function" ? options.path(variables) : options.path, {
        method: options.method ?? "POST",
        body: options.body ? options.body(variables) : (variables ?? {}),
      }),
    onSuccess: async (result, variables) => {
      if (options.success) toast({ tone: "success", title: typeof options.success === "function" ? options.success(result, variables) : options.success });
      await Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (options.refresh !== false) router.refresh();
      options.onSuccess?.(result, variables);
    },
    onError: (error) => {
      if (options.toastErrors !== false) toast({ tone: "error", title: error.message });
    },
  });
}
