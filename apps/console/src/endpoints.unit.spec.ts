import { describe, expect, it } from '@jest/globals';
import { problemsAbove, problemsByField } from './api';
import { changedFields, endpointFields, eventsInWords, eventTypeProblems, OVERLAPS, DEFAULT_OVERLAP } from './endpoints';

describe('the webhook endpoints page', () => {
  it('says "All events" for an endpoint that chose none, else the types it chose', () => {
    expect(eventsInWords([])).toBe('All events');
    expect(eventsInWords(['pix_charge.paid', 'payout.returned'])).toBe('pix_charge.paid, payout.returned');
  });

  it('sends [] for "All events" whatever boxes stay ticked, and no description as null', () => {
    expect(endpointFields({ url: ' https://loja.example/hooks ', all: true, chosen: ['charge.paid'], description: '  ' })).toEqual({
      url: 'https://loja.example/hooks',
      event_types: [],
      description: null,
    });
    expect(endpointFields({ url: 'https://loja.example/hooks', all: false, chosen: ['charge.paid'], description: ' ERP ' })).toEqual({
      url: 'https://loja.example/hooks',
      event_types: ['charge.paid'],
      description: 'ERP',
    });
  });

  it('saves only what changed: the same event types in another order are no change', () => {
    const before = { url: 'https://loja.example/a', event_types: ['charge.paid', 'charge.failed'], description: 'ERP' };
    expect(changedFields(before, { ...before, event_types: ['charge.failed', 'charge.paid'] })).toEqual({});
    expect(changedFields(before, { ...before, description: null, event_types: [] })).toEqual({ description: null, event_types: [] });
    expect(changedFields(before, { ...before, url: 'https://loja.example/b' })).toEqual({ url: 'https://loja.example/b' });
  });

  it('shows the problems about the event types beside them, whatever index they name', () => {
    const byField = problemsByField({
      message: 'body.event_types[1] must be one of recurrence.created, charge.paid. body.url must be an http(s) URL of at most 255 characters',
    });
    expect(eventTypeProblems(byField)).toEqual(['body.event_types[1] must be one of recurrence.created, charge.paid']);
    expect(eventTypeProblems(problemsByField({ message: 'body.event_types.0 must be one of charge.paid' }))).toHaveLength(1);
    expect(problemsAbove(byField, ['url', 'description', 'event_types'])).toBeUndefined();
  });

  it("offers the API's overlaps only (0 to 168 hours), 24 the default", () => {
    expect(OVERLAPS.every(([hours]) => Number.isInteger(hours) && hours >= 0 && hours <= 168)).toBe(true);
    expect(OVERLAPS.map(([hours]) => hours)).toContain(DEFAULT_OVERLAP);
    expect(DEFAULT_OVERLAP).toBe(24);
  });
});
