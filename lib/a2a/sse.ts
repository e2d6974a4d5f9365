// An A2A stream as a Server-Sent Events response, for both bindings (docs/a2a.md "Streaming"), written with the
// SDK's SSE_HEADERS / formatSSEEvent / formatSSEErrorEvent, as the SDK's Express handlers write theirs (which
// cannot serve a Next route handler). The first event is awaited before answering, so an error before the stream
// (unknown task, terminal task, ...) is answered as a plain error by the caller. When the client goes away:
// a SendStreamingMessage stream (`drain`) is still read to its end, because the SDK persists each event as its
// stream is read (the purchase must reach the task store whoever listens); a subscription simply stops.
import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from "@a2a-js/sdk";

export interface SseOptions<T> {
  drain: boolean;
  toJson: (event: T) => unknown;
  errorBody: (err: unknown) => unknown;
  signal?: AbortSignal;
  /** Called once when the client has gone: a producer waiting for its next event can stop waiting (task-follow.ts). */
  onDetach?: () => void;
}

/** The stream's first step: its first event, the end, or the error to answer instead of a stream. */
export async function firstOf<T>(
  stream: AsyncGenerator<T, void, undefined>,
): Promise<{ ok: true; first: IteratorResult<T, void> } | { ok: false; err: unknown }> {
  try {
    return { ok: true, first: await stream.next() };
  } catch (err) {
    return { ok: false, err };
  }
}

export function sseResponse<T>(
  stream: AsyncGenerator<T, void, undefined>,
  first: IteratorResult<T, void>,
  headers: Headers,
  options: SseOptions<T>,
): Response {
  for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
  const encoder = new TextEncoder();
  let detached = false;
  const detach = () => {
    if (detached) return;
    detached = true;
    options.onDetach?.();
    if (!options.drain) void stream.return(undefined).catch(() => undefined);
  };
  options.signal?.addEventListener("abort", detach);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Not awaited: the body is readable while the events come.
      void pump(controller);
    },
    cancel: detach,
  });
  async function pump(controller: ReadableStreamDefaultController<Uint8Array>) {
    const write = (text: string) => {
      if (detached) return;
      try {
        controller.enqueue(encoder.encode(text));
      } catch {
        detach();
      }
    };
    try {
      if (!first.done) write(formatSSEEvent(options.toJson(first.value)));
      for (let step = first; !step.done;) {
        step = await stream.next();
        if (!step.done) write(formatSSEEvent(options.toJson(step.value)));
      }
    } catch (err) {
      console.error("a2a stream failed", err instanceof Error ? err.message : err);
      write(formatSSEErrorEvent(options.errorBody(err)));
    } finally {
      options.signal?.removeEventListener("abort", detach);
      if (!detached)
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
    }
  }
  return new Response(body, { status: 200, headers });
}
