"use client";
// The fields of "Add endpoint" and "Edit": URL, description and the event types. Ticking "Selected event
// types" and none of them is refused here rather than sent as the API's "every type".
import { TextField } from "../TextField";
import { EventTypePicker } from "./EventTypePicker";

export interface EndpointDraft {
  url: string;
  description: string;
  /** null = every event type. */
  types: string[] | null;
}

/** "Selected event types" with none ticked: not sendable. */
export const noTypesTicked = (draft: EndpointDraft) => draft.types !== null && draft.types.length === 0;

export function EndpointFields({
  draft,
  onChange,
  fieldErrors,
  urlError = fieldErrors.url,
  noTypes,
}: {
  draft: EndpointDraft;
  onChange: (draft: EndpointDraft) => void;
  fieldErrors: Record<string, string>;
  urlError?: string;
  /** A submit was refused for noTypesTicked. */
  noTypes: boolean;
}) {
  const typesError = noTypes
    ? "Tick at least one event type, or choose all event types."
    : Object.entries(fieldErrors).find(([path]) => path.startsWith("enabledEvents"))?.[1];
  return (
    <>
      <TextField
        label="Endpoint URL"
        type="url"
        value={draft.url}
        onChange={(url) => onChange({ ...draft, url })}
        placeholder="https://example.com/webhooks"
        maxLength={2048}
        required
        error={urlError}
      />
      <TextField
        label="Description (optional)"
        value={draft.description}
        onChange={(description) => onChange({ ...draft, description })}
        maxLength={500}
        error={fieldErrors.description}
      />
      <EventTypePicker value={draft.types} onChange={(types) => onChange({ ...draft, types })} error={typesError} />
    </>
  );
}
