// State machines as data: each entity lists, per status, the statuses it may move to. Its one transition
// function asks `fromStatesOf(to)` for the guard of a conditional UPDATE, so a status never changes ad hoc
// and a concurrent change makes the guard fail instead of being overwritten.
import { ConflictError } from "./errors";

export type TransitionTable<S extends string> = Record<S, readonly S[]>;

export function fromStatesOf<S extends string>(table: TransitionTable<S>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((from) => table[from].includes(to));
}

export function canTransition<S extends string>(table: TransitionTable<S>, from: S, to: S): boolean {
  return table[from]?.includes(to) ?? false;
}

export function transitionConflict(entity: string, id: string, from: string | undefined, to: string): ConflictError {
  return new ConflictError(`The ${entity} ${id} cannot move from '${from ?? "unknown"}' to '${to}'.`, { id, status: from, requested: to });
}
