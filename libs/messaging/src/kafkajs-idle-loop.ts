/**
 * kafkajs 2.2.4 (its last release) re-arms a timer on every broker connection after each check of its request queue,
 * even with nothing queued, and with a negative delay (Node makes it 1 ms; Node 24 warns TimeoutNegativeWarning):
 * every connection of every idle process wakes a thousand times a second. Upstream: tulios/kafkajs issues 1556, 1704
 * and 1751; the fixes there are unreleased.
 *
 * The replacement schedules a check only while requests wait (throttled by the broker, or beyond the in-flight
 * limit): `push` arms it when it queues one, and an answered request checks the queue anyway.
 */
// A file of kafkajs's own: the package has no exports map, and the class is not exported from its index.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };

/** kafkajs's own pause between checks of a queue whose requests wait. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

interface RequestQueueInternals {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
  if (this.pending.length === 0 || this.throttleCheckTimeoutId) return;
  // checkPendingRequests sends what the broker's throttling and the in-flight limit allow, and arms the next check
  // while anything still waits.
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, CHECK_PENDING_REQUESTS_INTERVAL_MS);
}

/** Replaces kafkajs's scheduling of its request-queue checks, for the whole process (createKafka calls it). */
export function stopKafkajsIdleLoop(): void {
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
}
