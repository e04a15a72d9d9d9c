import { fold } from '@pixauto/event-store';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { sandboxClock, SandboxClockEvent } from './sandbox-clock';

// The sandbox test clock's decider: it only moves forward. It refuses nothing: the edge has already
// checked the request (Messages.sandboxClock), so a move that is not forward is simply not recorded.

const DAY = 24 * 60 * 60 * 1000;
const account_id = '7f0c1a2b-0000-4000-8000-000000000001';
const advanced = (advanced_ms: number, offset_ms: number): SandboxClockEvent => ({
  type: 'sandbox.clock_advanced',
  data: { account_id, offset_ms, advanced_ms },
});
const advance = (ms: number) => ({ type: 'AdvanceClock' as const, accountId: account_id, ms });
const given = DeciderSpecification.for(sandboxClock);

describe('sandbox clock', () => {
  it('starts at real time: no offset', () => {
    expect(fold(sandboxClock, [])).toEqual({ offsetMs: 0 });
  });

  it('advances a clock that never moved by the time asked', () => {
    given()
      .when(advance(3 * DAY))
      .then([advanced(3 * DAY, 3 * DAY)]);
  });

  it('adds each advance to the whole offset, which the state keeps', () => {
    given(advanced(3 * DAY, 3 * DAY))
      .when(advance(2 * 60 * 60 * 1000))
      .then([advanced(2 * 60 * 60 * 1000, 3 * DAY + 2 * 60 * 60 * 1000)]);
    expect(fold(sandboxClock, [advanced(3 * DAY, 3 * DAY), advanced(DAY, 4 * DAY)])).toEqual({ offsetMs: 4 * DAY });
  });

  it('never goes back: an advance of nothing, or backwards, records nothing', () => {
    given(advanced(DAY, DAY)).when(advance(0)).then([]);
    given(advanced(DAY, DAY)).when(advance(-DAY)).then([]);
    given().when(advance(0)).then([]);
  });
});
