import { useEffect, useState, type FormEvent } from 'react';
import { mayAct } from '../api';
import { brasiliaTime } from '../forms';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { zoneOf } from './When';

/** The sandbox's test clock: its now, and advancing it by days and hours so that what falls due plays out. */
export function SandboxClock({ api, session, environment, clockMoves, onAdvanced }: PageContext & { onAdvanced: () => void }) {
  const [clock, setClock] = useState<{ now: string; today: string }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void api.GET('/v2/sandbox/clock').then(({ data }) => data && setClock(data));
  }, [api, clockMoves]);

  const advance = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const { data, error } = await api.POST('/v2/sandbox/clock/advance', { body: { days: Number(form.get('days')), hours: Number(form.get('hours')) } });
    setBusy(false);
    setError(error ? (error as { message: string }).message : undefined);
    if (data) {
      setClock(data);
      onAdvanced();
    }
  };

  return (
    <section className="clock" aria-labelledby="clock-title">
      <h2 id="clock-title">Test clock</h2>
      <p>
        Now in the sandbox: <time data-testid="clock-today">{clock?.today ?? '…'}</time>{' '}
        <time data-testid="clock-time" dateTime={clock?.now}>
          {clock ? brasiliaTime(clock.now).slice(11) : '…'}
        </time>{' '}
        <span className="muted">({zoneOf(true)})</span>
      </p>
      {mayAct(session.role, environment) && (
        <form onSubmit={(event) => void advance(event)} className="inline">
          <label htmlFor="advance-days">Advance by days</label>
          <input id="advance-days" name="days" type="number" min={0} max={400} defaultValue={30} required />
          <label htmlFor="advance-hours">and hours</label>
          <input id="advance-hours" name="hours" type="number" min={0} max={23} defaultValue={0} required />
          <button type="submit" disabled={busy}>
            Advance
          </button>
        </form>
      )}
      <Alert message={error} />
    </section>
  );
}
