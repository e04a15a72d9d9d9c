import { useEffect, useMemo, useState } from 'react';
import { merchantApi, signOut, type Environment, type Session } from './api';
import { hrefOf, usePlace } from './routing';
import { ROLE } from './labels';
import { ApiKeys } from './pages/ApiKeys';
import { Overview } from './pages/Overview';
import { SandboxClock } from './pages/SandboxClock';
import { RecurrenceCreate } from './pages/RecurrenceCreate';
import { Requests } from './pages/Requests';
import { RecurrenceDetail } from './pages/RecurrenceDetail';
import { Recurrences } from './pages/Recurrences';
import { PixChargeDetail } from './pages/PixChargeDetail';
import { PixCharges } from './pages/PixCharges';
import { Disputes } from './pages/Disputes';
import { Webhooks } from './pages/Webhooks';
import { WebhookEndpoints } from './pages/WebhookEndpoints';
import { Payouts } from './pages/Payouts';
import { PayoutDetail } from './pages/PayoutDetail';
import { CustomerLimits } from './pages/CustomerLimits';
import { Account } from './pages/Account';
import { Team } from './pages/Team';
import { AuditLog } from './pages/AuditLog';

const ENVIRONMENTS: Array<[Environment, string]> = [
  ['sandbox', 'Sandbox'],
  ['production', 'Production'],
];

/** Each page's name in the browser's tab and history (document.title). */
const TITLES: Record<string, string> = {
  overview: 'Overview',
  recurrences: 'Recurrences',
  'new-recurrence': 'New recurrence',
  pix: 'Pix charges',
  disputes: 'Disputes',
  payouts: 'Payouts',
  limits: 'Customer limits',
  webhooks: 'Webhooks',
  'webhook-endpoints': 'Webhook endpoints',
  requests: 'Requests',
  'api-keys': 'API keys',
  team: 'Team',
  'audit-log': 'Audit log',
  account: 'Your account',
};
const SINGULAR: Record<string, string> = {
  recurrences: 'Recurrence',
  pix: 'Pix charge',
  disputes: 'Dispute',
  payouts: 'Payout',
  webhooks: 'Webhook delivery',
  'webhook-endpoints': 'Webhook endpoint',
};

/** "Payout 12 · Sandbox · pixauto console": the page, the thing shown, the environment. */
export const titleOf = (page: string, id: string | undefined, environment: Environment): string =>
  [
    id && SINGULAR[page] ? `${SINGULAR[page]} ${id}` : (TITLES[page] ?? 'Not found'),
    environment === 'sandbox' ? 'Sandbox' : 'Production',
    'pixauto console',
  ].join(' · ');

/** Pages about the account and its people, the same in both environments: no test clock above them. */
const ACCOUNT_PAGES = ['team', 'audit-log', 'account'];

export function Shell({ session, onSignedOut, onSessionChanged }: { session: Session; onSignedOut: () => void; onSessionChanged: () => void }) {
  const place = usePlace();
  const { environment } = place;
  const api = useMemo(() => merchantApi(environment, session), [environment, session]);
  // Advancing the test clock changes what every page shows: the pages read again when it moves.
  const [clockMoves, setClockMoves] = useState(0);
  const context = { api, environment, session, clockMoves };
  useEffect(() => {
    document.title = titleOf(place.page, place.id, environment);
  }, [place.page, place.id, environment]);

  return (
    <div className={`shell shell-${environment}`}>
      {environment === 'sandbox' && (
        <div className="sandbox-banner" role="status" data-testid="sandbox-banner">
          <strong>Sandbox</strong>: test data, a simulated bank and payer, and a test clock. Nothing here moves real money.
        </div>
      )}
      <header className="top">
        <span className="brand">pixauto console</span>
        {session.account_name && (
          <span className="account" data-testid="account-name" title="The account you are signed in to">
            {session.account_name}
          </span>
        )}
        <nav aria-label="Environment" className="environments">
          {ENVIRONMENTS.map(([value, label]) => (
            <a key={value} href={hrefOf({ environment: value, page: 'recurrences' })} aria-current={value === environment ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span className="who">
          {session.email} <span className="role">({ROLE[session.role]})</span>
        </span>
        <button type="button" className="secondary" onClick={() => void signOut(session).then(onSignedOut)}>
          Sign out
        </button>
      </header>
      <div className="body">
        <nav aria-label="Sections" className="sections">
          <a href={hrefOf({ environment, page: 'overview' })} aria-current={place.page === 'overview' ? 'page' : undefined}>
            Overview
          </a>
          <a href={hrefOf({ environment, page: 'recurrences' })} aria-current={place.page.startsWith('recurrence') ? 'page' : undefined}>
            Recurrences
          </a>
          <a href={hrefOf({ environment, page: 'pix' })} aria-current={place.page === 'pix' ? 'page' : undefined}>
            Pix charges
          </a>
          <a href={hrefOf({ environment, page: 'disputes' })} aria-current={place.page === 'disputes' ? 'page' : undefined}>
            Disputes
          </a>
          <a href={hrefOf({ environment, page: 'payouts' })} aria-current={place.page === 'payouts' ? 'page' : undefined}>
            Payouts
          </a>
          <a href={hrefOf({ environment, page: 'limits' })} aria-current={place.page === 'limits' ? 'page' : undefined}>
            Customer limits
          </a>
          <a href={hrefOf({ environment, page: 'webhooks' })} aria-current={place.page === 'webhooks' ? 'page' : undefined}>
            Webhooks
          </a>
          <a href={hrefOf({ environment, page: 'webhook-endpoints' })} aria-current={place.page === 'webhook-endpoints' ? 'page' : undefined}>
            Webhook endpoints
          </a>
          <a href={hrefOf({ environment, page: 'requests' })} aria-current={place.page === 'requests' ? 'page' : undefined}>
            Requests
          </a>
          <a href={hrefOf({ environment, page: 'api-keys' })} aria-current={place.page === 'api-keys' ? 'page' : undefined}>
            API keys
          </a>
          {session.role === 'owner' && (
            <a href={hrefOf({ environment, page: 'team' })} aria-current={place.page === 'team' ? 'page' : undefined}>
              Team
            </a>
          )}
          {session.role === 'owner' && (
            <a href={hrefOf({ environment, page: 'audit-log' })} aria-current={place.page === 'audit-log' ? 'page' : undefined}>
              Audit log
            </a>
          )}
          <a href={hrefOf({ environment, page: 'account' })} aria-current={place.page === 'account' ? 'page' : undefined}>
            Your account
          </a>
        </nav>
        <main>
          {environment === 'sandbox' && !ACCOUNT_PAGES.includes(place.page) && (
            <SandboxClock {...context} onAdvanced={() => setClockMoves((moves) => moves + 1)} />
          )}
          {place.page === 'recurrences' && !place.id && <Recurrences {...context} />}
          {place.page === 'new-recurrence' && <RecurrenceCreate {...context} />}
          {place.page === 'recurrences' && place.id && <RecurrenceDetail {...context} recurrenceId={place.id} />}
          {place.page === 'pix' && !place.id && <PixCharges {...context} />}
          {place.page === 'pix' && place.id && <PixChargeDetail {...context} chargeId={place.id} />}
          {place.page === 'disputes' && <Disputes {...context} disputeId={place.id} />}
          {place.page === 'webhooks' && <Webhooks {...context} deliveryId={place.id} />}
          {place.page === 'webhook-endpoints' && <WebhookEndpoints key={environment} {...context} endpointId={place.id} />}
          {place.page === 'overview' && <Overview {...context} />}
          {place.page === 'api-keys' && <ApiKeys {...context} />}
          {place.page === 'payouts' && !place.id && <Payouts {...context} />}
          {place.page === 'payouts' && place.id && <PayoutDetail {...context} payoutId={place.id} />}
          {place.page === 'limits' && <CustomerLimits {...context} />}
          {place.page === 'requests' && <Requests {...context} />}
          {place.page === 'team' && session.role === 'owner' && <Team {...context} onSessionChanged={onSessionChanged} />}
          {place.page === 'team' && session.role !== 'owner' && <OwnersOnly />}
          {place.page === 'audit-log' && session.role === 'owner' && <AuditLog {...context} />}
          {place.page === 'audit-log' && session.role !== 'owner' && <AuditOwnersOnly />}
          {place.page === 'account' && <Account {...context} />}
        </main>
      </div>
    </div>
  );
}

/** The Team page opened by someone who is not an owner (a bookmark, a link sent by a colleague): say why, never a blank page. */
function OwnersOnly() {
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">Team</h1>
      <p data-testid="owners-only">Only an owner of your account manages its users. Ask one of them to add, change or remove a user.</p>
    </section>
  );
}

/** The audit log opened by someone who is not an owner: say why. */
function AuditOwnersOnly() {
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p data-testid="owners-only">Only an owner of your account reads its audit log.</p>
    </section>
  );
}
