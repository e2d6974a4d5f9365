// The merchant agent's A2A request handler, the one behind both bindings (JSON-RPC, serve-agent.ts; HTTP+JSON,
// serve-rest.ts): the SDK's DefaultRequestHandler over the Postgres task store and push config store, the merchant
// agent as executor, and the signed push sender. One handler per request: the SDK's in-process event bus carries a
// SendStreamingMessage's events to its own stream (and to the webhooks) while the executor runs in that request.
// SubscribeToTask is the one method answered here rather than by the SDK: the SDK's resubscribe follows only a
// bus of this process, and a task may be moved on by a request another server process answers, so it follows the
// stored task instead (task-follow.ts).
import type { AgentCard, Message, SendMessageRequest, StreamResponse, SubscribeToTaskRequest, Task } from "@a2a-js/sdk";
import { RequestMalformedError, TaskNotFoundError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { DefaultRequestHandler, type ServerCallContext } from "@a2a-js/sdk/server";
import type { Scope } from "../scope";
import { MerchantAgent, outcomeOf } from "./merchant-agent";
import { PostgresPushNotificationStore } from "./push-store";
import { SignedPushNotificationSender } from "./push-sender";
import { followStoredTask, isTerminal } from "./task-follow";
import { PostgresTaskStore } from "./task-store";

export class MerchantRequestHandler extends DefaultRequestHandler {
  private readonly tasks: PostgresTaskStore;
  private readonly card: AgentCard;

  /** `left`: aborted when the request's client has gone (sse.ts onDetach), so that a subscription stops following. */
  constructor(
    card: AgentCard,
    merchant: { id: string; name: string },
    scope: Scope,
    private readonly left?: AbortSignal,
  ) {
    const tasks = new PostgresTaskStore(scope);
    const pushConfigs = new PostgresPushNotificationStore(scope);
    super(
      card,
      tasks,
      new MerchantAgent(merchant, scope),
      undefined,
      pushConfigs,
      new SignedPushNotificationSender(pushConfigs),
      undefined,
      undefined,
      // The bus lives as long as its request: a later request (a follow-up, a subscriber) starts from the stored task.
      { keepBusAliveStates: [] },
    );
    this.tasks = tasks;
    this.card = card;
  }

  /** A blocking SendMessage answers the task with the status the agent decided for this message (merchant-agent.ts). */
  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    const result = await super.sendMessage(params, context);
    const own = params.configuration?.returnImmediately ? undefined : outcomeOf(context);
    return own && "status" in result ? { ...result, status: own } : result;
  }

  override async *resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    if (!this.card.capabilities?.streaming) throw new UnsupportedOperationError("Streaming (and thus resubscription) is not supported.");
    if (!params.id?.trim()) throw new RequestMalformedError("Task ID is required");
    const task = await this.tasks.load(params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    if (isTerminal(task))
      throw new UnsupportedOperationError(`Task ${task.id} is in a terminal state (${task.status?.state}) and cannot be subscribed to.`);
    yield* followStoredTask(task, () => this.tasks.load(params.id, context), this.left);
  }
}
