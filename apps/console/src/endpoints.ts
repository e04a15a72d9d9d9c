// The webhook endpoints page's words and the request bodies its forms make: kept here, apart from React, to be tested.

/** How many endpoints an account has per environment at most (the API refuses the next one). */
export const MAX_ENDPOINTS = 16;

/** The event types an endpoint receives, in words: none chosen means every one, those added later included. */
export const eventsInWords = (eventTypes: readonly string[]): string => (eventTypes.length === 0 ? 'All events' : eventTypes.join(', '));

/** How long the previous secret keeps signing after a rotation, in hours, as the rotate form offers it (the API takes 0 to 168). */
export const OVERLAPS: ReadonlyArray<readonly [number, string]> = [
  [0, 'Not at all: only the new secret signs, from now on'],
  [1, '1 hour'],
  [24, '24 hours'],
  [72, '3 days'],
  [168, '7 days (the longest)'],
];
export const DEFAULT_OVERLAP = 24;

/** What the add and edit forms send: the URL and description as typed (trimmed), and the events chosen ([]: all of them). */
export interface EndpointFields {
  url: string;
  event_types: string[];
  description: string | null;
}

/**
 * The add or edit form's fields as the API takes them: `all` (the "All events" choice) sends [] whatever boxes stay
 * ticked; an empty description is none (null).
 */
export function endpointFields(typed: { url: string; all: boolean; chosen: readonly string[]; description: string }): EndpointFields {
  const description = typed.description.trim();
  return { url: typed.url.trim(), event_types: typed.all ? [] : [...typed.chosen], description: description === '' ? null : description };
}

/** Only what changed from the endpoint as it is (a PATCH of nothing saves nothing). */
export function changedFields(before: EndpointFields, after: EndpointFields): Partial<EndpointFields> {
  const changes: Partial<EndpointFields> = {};
  if (after.url !== before.url) changes.url = after.url;
  if (after.description !== before.description) changes.description = after.description;
  const same = after.event_types.length === before.event_types.length && after.event_types.every((type) => before.event_types.includes(type));
  if (!same) changes.event_types = after.event_types;
  return changes;
}

/** The API's problems about the event types (`body.event_types`, `body.event_types.0`, `body.event_types[0]`) are one field's. */
export function eventTypeProblems(byField: Record<string, string[]>): string[] {
  return Object.entries(byField).flatMap(([field, problems]) => (field === 'event_types' || field.startsWith('event_types.') ? problems : []));
}
