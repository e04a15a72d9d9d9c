import { Refusal } from '@pixauto/errors';

/** A domain event as decide produces it: a discriminated union on `type`. */
export interface DomainEvent<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
}

export type Decision<E extends DomainEvent> = { ok: true; events: E[] } | { ok: false; refusal: Refusal };

export const accept = <E extends DomainEvent>(...events: E[]): Decision<E> => ({ ok: true, events });
export const reject = <E extends DomainEvent>(refusal: Refusal): Decision<E> => ({ ok: false, refusal });

/** The pure heart of an aggregate: decide(command, state) -> events, evolve(state, event) -> state. */
export interface Decider<C, E extends DomainEvent, S> {
  initialState: S;
  decide(command: C, state: S): Decision<E>;
  evolve(state: S, event: E): S;
}

export const fold = <E extends DomainEvent, S>(decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>, events: readonly E[]): S =>
  events.reduce(decider.evolve, decider.initialState);
