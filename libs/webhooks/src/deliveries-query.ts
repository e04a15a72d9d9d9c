import { DELIVERY_STATUSES, DeliveryStatus, Validated, WEBHOOK_EVENT_TYPES } from '@pixauto/contracts';
import { Messages, validation } from '@pixauto/errors';
import { brasiliaStartOfDay, addDays } from '@pixauto/pix';
import { DeliveryFilters, DeliveryQuery } from './delivery-store';

// GET /v2/webhooks/deliveries: filters and page (the recurrence listing's pagination: page from 0, newest first);
// POST /v2/webhooks/deliveries/retry: the same filters.

const W = Messages.webhooks;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const DEFAULT_PAGE_SIZE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A day (YYYY-MM-DD, Brasília) or an instant with its zone; a day as `end` means the whole day. */
function instantOf(value: string, asEnd: boolean): Date | undefined {
  if (DATE.test(value)) {
    const day = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) return undefined;
    return brasiliaStartOfDay(asEnd ? addDays(value, 1) : value);
  }
  if (!DATE_TIME.test(value)) return undefined;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

const single = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The list's filters, without its page: what POST /v2/webhooks/deliveries/retry matches. */
export function parseDeliveryFilters(query: Record<string, unknown>): Validated<DeliveryFilters> {
  const { problems, value } = filtersOf(query);
  return problems.length > 0 ? { ok: false, refusal: validation(...problems) } : { ok: true, value };
}

export function parseDeliveriesQuery(query: Record<string, unknown>): Validated<DeliveryQuery> {
  const { problems, value } = filtersOf(query);
  const page = single(query.page);
  const pageSize = single(query.page_size);
  if (page !== undefined && !/^\d{1,9}$/.test(page)) problems.push(W.pageInvalid);
  if (pageSize !== undefined && (!/^\d{1,3}$/.test(pageSize) || Number(pageSize) < 1 || Number(pageSize) > 100)) problems.push(W.pageSizeInvalid);
  if (problems.length > 0) return { ok: false, refusal: validation(...problems) };
  return {
    ok: true,
    value: { ...value, page: page === undefined ? 0 : Number(page), page_size: pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(pageSize) },
  };
}

function filtersOf(query: Record<string, unknown>): { problems: string[]; value: DeliveryFilters } {
  const problems: string[] = [];
  const status = single(query.status);
  const eventType = single(query.event_type);
  const resourceId = single(query.resource_id);
  const endpointId = single(query.endpoint_id);
  const start = single(query.start);
  const end = single(query.end);
  if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) problems.push(W.statusInvalid);
  if (eventType !== undefined && !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(eventType)) problems.push(W.eventTypeInvalid(WEBHOOK_EVENT_TYPES));
  if (query.resource_id !== undefined && (typeof query.resource_id !== 'string' || query.resource_id.length > 100)) problems.push(W.resourceIdInvalid);
  if (query.endpoint_id !== undefined && (endpointId === undefined || !UUID.test(endpointId))) problems.push(W.endpointIdInvalid);
  const from = start === undefined ? undefined : instantOf(start, false);
  const to = end === undefined ? undefined : instantOf(end, true);
  if (start !== undefined && from === undefined) problems.push(W.dateTimeInvalid('query.start'));
  if (end !== undefined && to === undefined) problems.push(W.dateTimeInvalid('query.end'));
  if (from && to && from >= to) problems.push(W.periodOrder);
  return {
    problems,
    value: {
      ...(resourceId !== undefined && { resource_id: resourceId }),
      ...(endpointId !== undefined && { endpoint_id: endpointId.toLowerCase() }),
      ...(eventType !== undefined && { event_type: eventType }),
      ...(status !== undefined && { status: status as DeliveryStatus }),
      ...(from && { start: from }),
      ...(to && { end: to }),
    },
  };
}
