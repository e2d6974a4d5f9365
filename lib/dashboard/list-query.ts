// The query of a dashboard list page (?status=&startingAfter=), made safe for the domain list functions:
// an unknown status shows everything; a cursor that is not an id is dropped.
import { PATH_ID_PATTERN } from "../validation/text-safety";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export const PAGE_SIZE = 20;

export interface ListPageQuery<S extends string> {
  status?: S;
  startingAfter?: string;
  limit: number;
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** `?source=` of the payments and orders pages: one of `sources`, else none (all). */
export async function sourceQuery<S extends string>(searchParams: SearchParams, sources: readonly S[]): Promise<S | undefined> {
  const source = one((await searchParams).source);
  return source && (sources as readonly string[]).includes(source) ? (source as S) : undefined;
}

export async function listPageQuery<S extends string>(searchParams: SearchParams, statuses: readonly S[]): Promise<ListPageQuery<S>> {
  const params = await searchParams;
  const status = one(params.status);
  const cursor = one(params.startingAfter);
  return {
    limit: PAGE_SIZE,
    ...(status && (statuses as readonly string[]).includes(status) ? { status: status as S } : {}),
    ...(cursor && cursor.length <= 64 && PATH_ID_PATTERN.test(cursor) ? { startingAfter: cursor } : {}),
  };
}
