"use client";
// A dashboard mutation: react-query around dashboardFetch, a toast on success and on failure, and a
// refetch on success (the server-rendered page via router.refresh(), plus any react-query keys given).
// Each logical operation carries an Idempotency-Key: trying the same body again after a network failure
// (the first request may have done the work) reuses it, so the server replays instead of acting twice.
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef } from "react";
import { useToast } from "./useToast";
import { dashboardFetch, DashboardRequestError } from "../../lib/dashboard/client";

export interface DashboardMutationOptions<V, R> {
  /** The dashboard route, fixed or from the variables. */
  path: string | ((variables: V) => string);
  method?: "POST" | "PATCH" | "DELETE";
  /** The body sent (default: the variables themselves). */
  body?: (variables: V) => unknown;
  /** Toast text on success (none when omitted). */
  success?: string | ((result: R, variables: V) => string);
  /** The page the success toast is shown on when onSuccess navigates there (default: this page; toasts
   * are dropped on navigation to another page). */
  successPage?: string;
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
  const pendingKey = useRef<{ key: string; request: string } | null>(null);
  return useMutation<R, DashboardRequestError, V>({
    mutationFn: async (variables) => {
      const path = typeof options.path === "function" ? options.path(variables) : options.path;
      const body = options.body ? options.body(variables) : (variables ?? {});
      const request = `${path} ${JSON.stringify(body)}`;
      if (pendingKey.current?.request !== request) pendingKey.current = { key: `dash_${crypto.randomUUID()}`, request };
      try {
        const result = await dashboardFetch<R>(path, { method: options.method ?? "POST", body, idempotencyKey: pendingKey.current.key });
        pendingKey.current = null;
        return result;
      } catch (err) {
        // A refusal (4xx) is this request's final answer. No answer, a 409 (the first attempt may still be
        // running) or a 5xx (the server released the key) keeps the key, so trying again cannot act twice.
        const status = err instanceof DashboardRequestError ? err.status : 0;
        if (status >= 400 && status < 500 && status !== 409) pendingKey.current = null;
        throw err;
      }
    },
    onSuccess: async (result, variables) => {
      if (options.success)
        toast({
          tone: "success",
          title: typeof options.success === "function" ? options.success(result, variables) : options.success,
          page: options.successPage,
        });
      await Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (options.refresh !== false) router.refresh();
      options.onSuccess?.(result, variables);
    },
    onError: (error) => {
      if (options.toastErrors !== false) toast({ tone: "error", title: error.message });
    },
  });
}
