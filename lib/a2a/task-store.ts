// The A2A task store in Postgres (table a2a_tasks; docs/a2a.md): the SDK's TaskStore interface, scoped to one
// merchant agent and mode, and to the buyer (the caller's `userName`, the merchant id of its API key). Tasks are
// stored as A2A v1.0 ProtoJSON, so any server process answers GetTask and a restart loses nothing. A terminal
// task is never overwritten: the upsert is guarded by the stored state, so a late or concurrent write (another
// process finishing the same task) cannot undo what was decided first. A paid task (payment_intent_id set by the
// settling transaction) takes only its completion: a concurrent payment refused because this one won may finish
// writing first, and its "failed" must not hide the payment. While the paying process moves the task on (working,
// the order artifact, then completed), a paid task also takes a non-terminal write, and artifacts only ever grow
// (the upsert keeps every stored artifact the write lacks), so a concurrent writer's older copy cannot drop the
// receipt. Every save wakes this process's subscribers (task-follow.ts); other processes poll the row.
import { Task, taskStateToJSON, type ListTasksRequest, type ListTasksResponse } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import { getDb } from "../db";
import type { Scope } from "../scope";
import { taskSaved } from "./task-follow";

const TERMINAL = ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"];

export function ownerOf(context: ServerCallContext): string {
  const user = context.user;
  if (!user?.isAuthenticated) throw new Error("A2A task store used without an authenticated buyer.");
  return user.userName;
}

function stateOf(task: Task): string {
  return taskStateToJSON(task.status?.state ?? 0);
}

export class PostgresTaskStore implements TaskStore {
  constructor(private readonly scope: Scope) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const json = Task.toJSON(task) as object;
    const owner = ownerOf(context);
    await getDb().$executeRaw`
      INSERT INTO a2a_tasks (id, merchant_id, livemode, owner, context_id, state, task)
      VALUES (${task.id}, ${this.scope.merchantId}, ${this.scope.livemode}, ${owner}, ${task.contextId}, ${stateOf(task)}, ${JSON.stringify(json)}::jsonb)
      ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, context_id = EXCLUDED.context_id, updated_at = now(),
        task = jsonb_set(EXCLUDED.task, '{artifacts}', COALESCE(EXCLUDED.task -> 'artifacts', '[]'::jsonb) || COALESCE((
          SELECT jsonb_agg(kept) FROM jsonb_array_elements(COALESCE(a2a_tasks.task -> 'artifacts', '[]'::jsonb)) AS kept
           WHERE NOT COALESCE(EXCLUDED.task -> 'artifacts', '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('artifactId', kept -> 'artifactId'))
        ), '[]'::jsonb))
       WHERE a2a_tasks.merchant_id = EXCLUDED.merchant_id AND a2a_tasks.livemode = EXCLUDED.livemode AND a2a_tasks.owner = EXCLUDED.owner
         AND ((a2a_tasks.payment_intent_id IS NULL AND a2a_tasks.state <> ALL (${TERMINAL}::text[]))
           OR (a2a_tasks.payment_intent_id IS NOT NULL AND a2a_tasks.state <> 'TASK_STATE_COMPLETED'
               AND EXCLUDED.state IN ('TASK_STATE_COMPLETED', 'TASK_STATE_WORKING')))`;
    taskSaved(task.id);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const row = await getDb().a2aTask.findFirst({
      where: { id: taskId, merchantId: this.scope.merchantId, livemode: this.scope.livemode, owner: ownerOf(context) },
    });
    return row ? Task.fromJSON(row.task) : undefined;
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? 50;
    const offset = /^\d{1,9}$/.test(params.pageToken ?? "") ? Number(params.pageToken) : 0;
    const where = {
      merchantId: this.scope.merchantId,
      livemode: this.scope.livemode,
      owner: ownerOf(context),
      ...(params.contextId ? { contextId: params.contextId } : {}),
      ...(params.status ? { state: taskStateToJSON(params.status) } : {}),
      ...(params.statusTimestampAfter ? { updatedAt: { gt: new Date(params.statusTimestampAfter) } } : {}),
    };
    const [rows, totalSize] = await Promise.all([
      getDb().a2aTask.findMany({ where, orderBy: [{ updatedAt: "desc" }, { id: "desc" }], skip: offset, take: pageSize }),
      getDb().a2aTask.count({ where }),
    ]);
    const tasks = rows.map((row) => {
      const task = Task.fromJSON(row.task);
      if (params.historyLength !== undefined) task.history = params.historyLength > 0 ? task.history.slice(-params.historyLength) : [];
      return task;
    });
    const next = offset + rows.length;
    return { tasks, nextPageToken: next < totalSize ? String(next) : "", pageSize, totalSize };
  }
}
