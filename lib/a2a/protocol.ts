// A2A v1.0 as @a2a-js/sdk 1.3 speaks it (docs/a2a.md): the metadata and data keys of the a2a-x402 extension
// (spec v0.2) and of AP2 (v0.1), and small builders for the SDK's internal (ts-proto) message shapes. The
// versions and extension URIs the agent declares are lib/integrations/a2a-versions.ts.
import { Role, TaskState, type Message, type Part, type Task } from "@a2a-js/sdk";
import { randomUUID } from "node:crypto";

export const X402_KEYS = {
  status: "x402.payment.status",
  required: "x402.payment.required",
  payload: "x402.payment.payload",
  receipts: "x402.payment.receipts",
  error: "x402.payment.error",
} as const;

export const AP2_KEYS = {
  intentMandate: "ap2.mandates.IntentMandate",
  cartMandate: "ap2.mandates.CartMandate",
  paymentMandate: "ap2.mandates.PaymentMandate",
  paymentReceipt: "ap2.PaymentReceipt",
} as const;

/** Where the agent keeps what it asked for, in the task's own metadata (only the agent writes it). */
export const TERMS_KEY = "agentpay.terms";

export function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

export function dataPart(value: unknown): Part {
  return { content: { $case: "data", value }, metadata: undefined, filename: "", mediaType: "application/json" };
}

export function agentMessage(task: { id: string; contextId: string }, parts: Part[], metadata?: Record<string, unknown>): Message {
  return {
    messageId: randomUUID(),
    contextId: task.contextId,
    taskId: task.id,
    role: Role.ROLE_AGENT,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The task with a new status (and artifacts), as the agent publishes it. */
export function withStatus(
  task: Task,
  state: TaskState,
  message: Message,
  changes: Partial<Pick<Task, "artifacts" | "metadata">> = {},
): Task {
  return { ...task, ...changes, status: { state, message, timestamp: new Date().toISOString() } };
}

/** The data parts of a message (DataPart values that are objects). */
export function dataOf(message: Message | undefined): Record<string, unknown>[] {
  return (message?.parts ?? []).flatMap((part) =>
    part.content?.$case === "data" && part.content.value && typeof part.content.value === "object" && !Array.isArray(part.content.value)
      ? [part.content.value as Record<string, unknown>]
      : [],
  );
}

export function textOf(message: Message | undefined): string {
  return (message?.parts ?? []).flatMap((part) => (part.content?.$case === "text" ? [part.content.value] : [])).join("\n");
}
