// A minimal server-sent-events client over fetch for the stream tests: collects frames (id, event, data)
// and comment lines as they arrive; close() disconnects. `paused`: reads nothing until resume() (a client
// that stops reading: fetch stops taking bytes from the socket once its own small buffer is full).
import { checkV1Response, recordV1Response } from "./openapi-responses";

export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  frames: SseFrame[];
  comments: string[];
  /** The JSON body of a non-200 answer. */
  errorBody?: any;
  waitFor: (predicate: (frames: SseFrame[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => void;
  /** Resolves when the stream has ended (the server ended it, or close()). */
  closed: Promise<void>;
  ended: boolean;
  /** Starts reading a stream opened with `paused`. */
  resume: () => void;
}

export async function openStream(
  base: string,
  key: string,
  options: { types?: string; lastEventId?: string; paused?: boolean } = {},
): Promise<SseConnection> {
  const abort = new AbortController();
  const url = new URL("/v1/events/stream", base);
  if (options.types !== undefined) url.searchParams.set("types", options.types);
  const res = await fetch(url, {
    headers: {
      authorization: `Bearer ${key}`,
      accept: "text/event-stream",
      ...(options.lastEventId ? { "last-event-id": options.lastEventId } : {}),
    },
    signal: abort.signal,
  });
  recordV1Response(checkV1Response("GET", url.href, res.status, res.headers.get("content-type") ?? "", null)); // its body is not JSON
  const connection: SseConnection = {
    status: res.status,
    headers: res.headers,
    frames: [],
    comments: [],
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(connection.frames)) {
        if (Date.now() > deadline)
          throw new Error(
            `stream: condition not met in ${timeoutMs} ms (${connection.frames.length} frames: ${connection.frames
              .slice(0, 20)
              .map((f) => f.event)
              .join(",")}${connection.frames.length > 20 ? ",..." : ""})`,
          );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => abort.abort(),
    closed: Promise.resolve(),
    ended: false,
    resume: () => resume(),
  };
  let resume!: () => void;
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  if (!options.paused) resume();
  if (res.status !== 200) {
    connection.errorBody = await res.json();
    return connection;
  }
  connection.closed = (async () => {
    await resumed;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const frame: SseFrame = { data: "" };
          let hasData = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) connection.comments.push(line.slice(1).trim());
            else if (line.startsWith("id: ")) frame.id = line.slice(4);
            else if (line.startsWith("event: ")) frame.event = line.slice(7);
            else if (line.startsWith("data: ")) {
              frame.data += (hasData ? "\n" : "") + line.slice(6);
              hasData = true;
            }
          }
          if (hasData) connection.frames.push(frame);
        }
      }
    } catch {
      // aborted by close(), or the server dropped the connection
    }
    connection.ended = true;
  })();
  return connection;
}
