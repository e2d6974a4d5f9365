// The real @a2a-js/sdk 1.3 client against a merchant agent (docs/a2a.md), authenticated with the buyer's API key.
import { randomUUID } from "node:crypto";
import { Role, type Message, type Part, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
  type Client,
} from "@a2a-js/sdk/client";
import { expect } from "vitest";
import { baseUrl } from "./http";

export const X402_EXT = "https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2";
export const AP2_EXT = "https://github.com/google-agentic-commerce/ap2/tree/v0.1";

export function agentBase(merchantId: string, base = baseUrl()) {
  return `${base}/a2a/${merchantId}`;
}

export function bearerFetch(key: string): typeof fetch {
  return createAuthenticatingFetchWithRetry(fetch, {
    headers: async () => ({ Authorization: `Bearer ${key}` }),
    shouldRetryWithHeaders: async () => undefined,
  });
}

/** The real SDK client (ClientFactory().createFromUrl), authenticated with the buyer's API key (the card's Bearer scheme). */
export async function a2aClient(merchantId: string, key: string, base = baseUrl()): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: bearerFetch(key) })],
    }),
  );
  // The card is at <agent>/.well-known/agent-card.json: the resolver resolves that relative path, so a trailing slash.
  return factory.createFromUrl(`${agentBase(merchantId, base)}/`);
}

export function text(value: string): Part {
  return { content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

export function data(value: unknown): Part {
  return { content: { $case: "data", value }, metadata: undefined, filename: "", mediaType: "application/json" };
}

export function userMessage(parts: Part[], extra: Partial<Message> = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}

/** AP2 v0.2's payment message in a task: the two closed mandate chains (SD-JWT + KB-SD-JWT), one data part each. */
export function ap2V02PayMessage(task: Task, mandates: { checkout_mandate: string; payment_mandate: string }): Message {
  return userMessage(
    [
      text("paying"),
      data({ "ap2.mandates.CheckoutMandateSdJwt": mandates.checkout_mandate }),
      data({ "ap2.mandates.PaymentMandateSdJwt": mandates.payment_mandate }),
    ],
    { taskId: task.id, contextId: task.contextId },
  );
}

export function asTask(result: unknown): Task {
  expect(result && typeof result === "object" && "status" in result, JSON.stringify(result)).toBe(true);
  return result as Task;
}

export async function send(client: Client, message: Message, extensions: string[] = []) {
  const options = extensions.length ? { serviceParameters: ServiceParameters.create(withA2AExtensions(...extensions)) } : undefined;
  return asTask(await client.sendMessage({ tenant: "", message, configuration: undefined, metadata: undefined }, options));
}

/** The data parts' values. */
export function dataOf(parts: Part[] | undefined): Record<string, any>[] {
  return (parts ?? []).flatMap((p) => (p.content?.$case === "data" ? [p.content.value as Record<string, any>] : []));
}
