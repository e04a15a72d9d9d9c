import { useCallback, useEffect, useState } from 'react';
import { consoleCall } from '../api';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';
import { When, withZone } from './When';

/** One change to the account, as the console server answers it (GET /console/v1/audit-log). */
interface AuditEntry {
  id: string;
  at: string;
  environment: 'production' | 'sandbox' | null;
  actor_type: 'console_user' | 'console' | 'operator' | 'api_key';
  actor: string | null;
  action: string;
  object: string;
  detail: Record<string, unknown>;
}

const ENVIRONMENT: Record<string, string> = { production: 'Production', sandbox: 'Sandbox' };

function who(entry: AuditEntry): string {
  switch (entry.actor_type) {
    case 'console_user':
      return entry.actor ?? '';
    case 'api_key':
      return `Your integration, with API key ${entry.actor}`;
    case 'console':
      return 'The console (its own key)';
    case 'operator':
      return 'Your operator (admin API)';
  }
}

const plural = (count: number, one: string): string => `${count} ${one}${count === 1 ? '' : 's'}`;

/** How far the clock moved, in days and hours as it was asked. */
function duration(ms: unknown): string {
  const hours = Math.round(Number(ms) / 3_600_000);
  const days = Math.floor(hours / 24);
  return [days > 0 && plural(days, 'day'), hours % 24 > 0 && plural(hours % 24, 'hour')].filter(Boolean).join(' and ') || `${Number(ms)} ms`;
}

const LIMIT_TYPES: Record<string, string> = { cashin: 'cash-in', cashout: 'cash-out' };

/** What changed, in words. */
function what(entry: AuditEntry): string {
  const { detail } = entry;
  switch (entry.action) {
    case 'api_key.created':
      return `${detail.read_only ? 'Created a read-only API key' : 'Created an API key'}${typeof detail.name === 'string' ? ` named “${detail.name}”` : ''}`;
    case 'api_key.revoked':
      return 'Revoked an API key';
    case 'webhook_secret.rotated':
      return 'Rotated the webhook signing secret';
    case 'customer_limit.set': {
      const cap =
        detail.mechanism === 'quantity'
          ? `${plural(Number(detail.quantity), 'transaction')} a day`
          : `R$ ${Number(detail.amount).toLocaleString('pt-BR', { minimumFractionDigits: 2 })} per transaction`;
      return `Set a customer's ${LIMIT_TYPES[String(detail.type)] ?? String(detail.type)} limit: ${cap}`;
    }
    case 'sandbox_clock.advanced':
      return `Advanced the test clock by ${duration(detail.ms)}`;
    case 'webhook_endpoint.created':
      return `Added a webhook endpoint: ${String(detail.url)}`;
    case 'webhook_endpoint.updated':
      return `Changed a webhook endpoint (${Object.keys(detail).join(', ')})`;
    case 'webhook_endpoint.deleted':
      return 'Deleted a webhook endpoint';
    case 'webhook_endpoint.secret_revealed':
      return "Revealed a webhook endpoint's signing secret";
    case 'webhook_endpoint.secret_rotated':
      return "Rotated a webhook endpoint's signing secret";
    case 'team_member.added':
      return `Added a team member as ${String(detail.role)}`;
    case 'team_member.role_changed':
      return `Changed a team member's role from ${String(detail.previous_role)} to ${String(detail.role)}`;
    case 'team_member.removed':
      return `Removed a team member (${String(detail.role)})`;
    default:
      return entry.action;
  }
}

/** What the change was about. */
function which(entry: AuditEntry): string {
  switch (entry.action) {
    case 'webhook_secret.rotated':
      return `The ${entry.environment ?? ''} signing secret`;
    case 'sandbox_clock.advanced':
      return 'The sandbox test clock';
    case 'customer_limit.set':
      return `Customer ${entry.object}`;
    case 'webhook_endpoint.created':
    case 'webhook_endpoint.updated':
    case 'webhook_endpoint.deleted':
    case 'webhook_endpoint.secret_revealed':
    case 'webhook_endpoint.secret_rotated':
      return `The ${entry.environment ?? ''} webhook endpoint ${entry.object}`;
    default:
      return entry.object;
  }
}

/** The account's audit log, for its owners: who changed what, and when, newest first, a page at a time. */
export function AuditLog({ session }: PageContext) {
  const [entries, setEntries] = useState<AuditEntry[]>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string>();

  const load = useCallback(
    async (cursor?: string) => {
      const { data, error } = await consoleCall<{ entries: AuditEntry[]; next_cursor: string | null }>(
        session,
        'GET',
        `/console/v1/audit-log${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      setError(error?.message);
      if (!data) return;
      setEntries((shown) => (cursor ? [...(shown ?? []), ...data.entries] : data.entries));
      setNext(data.next_cursor);
    },
    [session],
  );

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p className="muted">
        Who changed your account's API keys, webhook signing secrets, customer limits, sandbox test clock and team, and when, in both environments, the newest
        first. Entries are kept for good: nobody can change or delete one.
      </p>
      <Alert message={error} />
      {entries && entries.length === 0 && <p data-testid="no-entries">Nothing has changed yet.</p>}
      {entries && entries.length > 0 && (
        <ScrollBox label="Audit log">
          <table data-testid="audit-log">
            <caption className="visually-hidden">Changes to the account, the newest first</caption>
            <thead>
              <tr>
                <th scope="col">{withZone('When')}</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Which</th>
                <th scope="col">Environment</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-action={entry.action}>
                  <td>
                    <When iso={entry.at} />
                  </td>
                  <td>{who(entry)}</td>
                  <td>{what(entry)}</td>
                  <td>{entry.action.startsWith('api_key.') ? <code>{which(entry)}</code> : which(entry)}</td>
                  <td>{entry.environment ? ENVIRONMENT[entry.environment] : 'Both'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {next && (
        <button type="button" className="secondary" onClick={() => void load(next)}>
          Older entries
        </button>
      )}
    </section>
  );
}
