// A route's write (PipelineOptions.write: a CallerWrite, lib/db.ts) as the API-key step runs it
// (lib/http/authenticate.ts): inside its own statement, after the key, the rate-limit token, the permission and the
// idempotency claim, which is written already stored with the planned answer. A create is ONE round trip, its replay
// and its refusals too. The answer may show the caller's mode only, so it is rendered for both.
import type { CallerQuery, CallerWrite } from "../db";
import { storedForm } from "../idempotency/claims";

/** The answer as sent and as stored for replay (sealed when it carries a secret), by mode: [test, live]. */
export interface PlannedAnswer {
  status: number;
  texts: readonly [string, string];
  stored: readonly [string, string];
}

/** What the authentication step is handed to run: a route's statement, and for a write its planned answer. */
export interface RouteQuery extends CallerQuery<unknown> {
  answer?: PlannedAnswer;
}

/** The write and its answer in both modes, as the API-key step runs and stores them. */
export function plannedWrite(write: CallerWrite, status: number, seal = false): RouteQuery {
  const texts = [JSON.stringify(write.answer(false)), JSON.stringify(write.answer(true))] as const;
  const stored = [storedForm(texts[0], seal), storedForm(texts[1], seal)] as const;
  return { ...write.query, answer: { status, texts, stored } };
}

/** The answer for a caller of this mode. */
export function answerIn(answer: PlannedAnswer, livemode: boolean): { status: number; bodyText: string } {
  return { status: answer.status, bodyText: answer.texts[livemode ? 1 : 0] };
}
