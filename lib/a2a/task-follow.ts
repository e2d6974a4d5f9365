// SubscribeToTask from the stored task (docs/a2a.md "Streaming"): the stream starts with the task as Postgres holds
// it, then turns each later stored version into the A2A events that lead to it (an artifactUpdate per new or
// changed artifact, then a statusUpdate when the status changed), until the task is terminal. Any server process
// answers it for a task another process runs: a save in this process wakes its subscribers at once
// (PostgresTaskStore.save calls taskSaved), and the row is read again every POLL_MS for saves made elsewhere. Two
// saves close together may reach a subscriber as one step (it sees the later one), never out of order.
import { EventEmitter } from "node:events";
import { TaskState, type Artifact, type StreamResponse, type Task } from "@a2a-js/sdk";
import { globalSingleton } from "../global-singleton";

const POLL_MS = 500;
/** A subscription ends after this long (the client subscribes again): no stream is held open forever. */
export const MAX_FOLLOW_MS = 10 * 60_000;

const TERMINAL_STATES = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export function isTerminal(task: Task | undefined): boolean {
  return TERMINAL_STATES.has(task?.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
}

function saves(): EventEmitter {
  return globalSingleton("a2a.task-saves", () => new EventEmitter().setMaxListeners(0));
}

/** A task row was written in this process: its subscribers here read it now rather than at their next poll. */
export function taskSaved(taskId: string): void {
  saves().emit(taskId);
}

/** The events that take a subscriber from `before` to `after` (both stored versions of one task). */
export function eventsBetween(before: Task, after: Task): StreamResponse[] {
  const events: StreamResponse[] = [];
  const seen = new Map(before.artifacts.map((a) => [a.artifactId, JSON.stringify(a)]));
  for (const artifact of after.artifacts as Artifact[]) {
    if (seen.get(artifact.artifactId) === JSON.stringify(artifact)) continue;
    events.push({
      payload: {
        $case: "artifactUpdate",
        value: { taskId: after.id, contextId: after.contextId, artifact, append: false, lastChunk: true, metadata: undefined },
      },
    });
  }
  if (after.status && JSON.stringify(after.status) !== JSON.stringify(before.status))
    events.push({
      payload: {
        $case: "statusUpdate",
        value: { taskId: after.id, contextId: after.contextId, status: after.status, metadata: undefined },
      },
    });
  return events;
}

/**
 * The stored task, then its later versions as events, until it is terminal, `left` is aborted (the subscriber has
 * gone: a return() alone would wait for the next event, which an unchanged task never gives), or MAX_FOLLOW_MS.
 * `load` reads the row as the caller may see it (undefined: gone).
 */
export async function* followStoredTask(
  first: Task,
  load: () => Promise<Task | undefined>,
  left?: AbortSignal,
): AsyncGenerator<StreamResponse, void, undefined> {
  let current = first;
  let wake: (() => void) | null = null;
  const onSave = () => wake?.();
  saves().on(first.id, onSave);
  left?.addEventListener("abort", onSave);
  const deadline = Date.now() + MAX_FOLLOW_MS;
  try {
    yield { payload: { $case: "task", value: first } };
    while (!isTerminal(current) && Date.now() < deadline && !left?.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
      if (left?.aborted) return;
      const next = await load();
      if (!next) return;
      for (const event of eventsBetween(current, next)) yield event;
      current = next;
    }
  } finally {
    saves().off(first.id, onSave);
    left?.removeEventListener("abort", onSave);
  }
}
