import { useEffect, useState, type FormEvent } from 'react';
import { mayAct, money } from '../api';
import { daysFromToday } from '../forms';
import { labelOf, PERIODICITY, RECURRENCE_STATUS } from '../labels';
import { hrefOf } from '../routing';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';
import { Pager } from './Pager';
import type { SandboxComponents } from '@pixauto/api-client';

type RecurrenceList = SandboxComponents['schemas']['RecurrenceListResponse'];

/** Recurrences created in a period (the API's filter), a page at a time. */
export function Recurrences({ api, environment, session, clockMoves }: PageContext) {
  const [period, setPeriod] = useState({ start: daysFromToday(-90), end: daysFromToday(400) });
  const [page, setPage] = useState(0);
  const [list, setList] = useState<RecurrenceList>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    const query = { start: `${period.start}T00:00:00-03:00`, end: `${period.end}T23:59:59-03:00`, page, page_size: 20 };
    void api.GET('/v2/automatic-pix/recurrences', { params: { query } }).then(({ data, error }) => {
      setList(data);
      setError(error ? (error as { message: string }).message : undefined);
    });
  }, [api, period, page, clockMoves]);

  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPeriod({ start: String(form.get('start')), end: String(form.get('end')) });
    setPage(0);
  };

  return (
    <section aria-labelledby="recurrences-title">
      <div className="title-row">
        <h1 id="recurrences-title">Recurrences</h1>
        {mayAct(session.role, environment) && (
          <a className="button" href={hrefOf({ environment, page: 'new-recurrence' })}>
            New recurrence
          </a>
        )}
      </div>
      <form onSubmit={filter} className="inline filters" aria-label="Filter recurrences">
        <label htmlFor="filter-start">Created from</label>
        <input id="filter-start" name="start" type="date" defaultValue={period.start} required />
        <label htmlFor="filter-end">to</label>
        <input id="filter-end" name="end" type="date" defaultValue={period.end} required />
        <button type="submit" className="secondary">
          Filter
        </button>
      </form>
      <Alert message={error} />
      {list && list.recurrences.length === 0 && <p>No recurrence was created in this period.</p>}
      {list && list.recurrences.length > 0 && (
        <ScrollBox label="Recurrences found">
          <table>
            <caption className="visually-hidden">Recurrences created in the period, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Contract</th>
                <th scope="col">Payer</th>
                <th scope="col">Amount</th>
                <th scope="col">Every</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.recurrences.map((recurrence) => (
                <tr key={recurrence.recurrence_id}>
                  <td>
                    <a href={hrefOf({ environment, page: 'recurrences', id: recurrence.recurrence_id })}>{recurrence.contract}</a>
                  </td>
                  <td>{recurrence.debtor.name}</td>
                  <td>{money(recurrence.amount)}</td>
                  <td>{labelOf(PERIODICITY, recurrence.schedule.periodicity)}</td>
                  <td>
                    <span className={`status status-${recurrence.status}`}>{labelOf(RECURRENCE_STATUS, recurrence.status)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {list && <Pager page={page} pages={list.pagination.total_pages} onPage={setPage} />}
    </section>
  );
}
