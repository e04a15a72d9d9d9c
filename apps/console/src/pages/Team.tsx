import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { consoleCall, problemsAbove, problemsByField, type Role } from '../api';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';
import { CopyButton } from './CopyButton';
import { Field } from './Field';
import { When, withZone } from './When';
import { ROLE } from '../labels';

/** A console user of the account (GET /console/v1/users). */
interface TeamMember {
  user_id: string;
  email: string;
  role: Role;
  created_at: string;
  last_signed_in_at: string | null;
}

/** A user just added, or given a new link: the link is shown this once. */
interface SignInLink {
  user: TeamMember;
  sign_in_url: string;
  expires_at: string;
}

const USERS_URL = '/console/v1/users';
const ROLES: Array<[Role, string]> = [
  ['viewer', 'Viewer: reads everything, changes nothing'],
  ['developer', 'Developer: acts in the sandbox, reads production'],
  ['owner', 'Owner: everything, production and the team included'],
];

const userUrl = (userId: string): string => `${USERS_URL}/${encodeURIComponent(userId)}`;

/** The account's console users, for its owners: add one (with a one-time sign-in link), change a role, make a new link, remove. */
export function Team({ session, onSessionChanged }: PageContext & { onSessionChanged: () => void }) {
  const [members, setMembers] = useState<TeamMember[]>();
  const [error, setError] = useState<string>();
  const [problems, setProblems] = useState<Record<string, string[]>>({});
  const [link, setLink] = useState<SignInLink>();
  const [confirming, setConfirming] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const { data, error } = await consoleCall<{ console_users: TeamMember[] }>(session, 'GET', USERS_URL);
    setMembers(data?.console_users);
    if (error) setError(error.message);
  }, [session]);

  useEffect(() => {
    void load();
  }, [load]);

  const shown = (made: SignInLink | undefined) => {
    setLink(made);
  };

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    const { data: made, error } = await consoleCall<SignInLink>(session, 'POST', USERS_URL, {
      email: String(data.get('email')).trim(),
      role: data.get('role'),
    });
    setBusy(false);
    setProblems(problemsByField(error));
    setError(undefined);
    shown(made);
    if (made) form.reset();
    await load();
  };

  const act = async (method: string, url: string, body?: unknown): Promise<boolean> => {
    setBusy(true);
    const outcome = await consoleCall<SignInLink>(session, method, url, body);
    setBusy(false);
    setConfirming(undefined);
    setError(outcome.error?.message);
    if (outcome.data && 'sign_in_url' in outcome.data) shown(outcome.data);
    await load();
    return !outcome.error;
  };

  const changeRole = async (member: TeamMember, role: Role) => {
    if ((await act('PATCH', userUrl(member.user_id), { role })) && member.email === session.email) onSessionChanged();
  };

  const remove = async (member: TeamMember) => {
    if ((await act('DELETE', userUrl(member.user_id))) && member.email === session.email) onSessionChanged();
  };

  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">Team</h1>
      <p className="muted">
        Everyone who signs in to the console for this account. A new user gets a sign-in link, which works once within 24 hours: with it they choose their
        password. The account always keeps at least one owner.
      </p>
      <Alert message={error} />
      <form onSubmit={(event) => void add(event)} aria-label="Add a user" className="inline">
        <Field id="new-email" label="Email" problems={problems.email}>
          <input id="new-email" name="email" type="email" autoComplete="off" maxLength={254} required />
        </Field>
        <Field id="new-role" label="Role" problems={problems.role}>
          <select id="new-role" name="role" defaultValue="viewer">
            {ROLES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={busy}>
          Add user
        </button>
      </form>
      <Alert message={problemsAbove(problems, ['email', 'role'])} />
      {link && (
        <div className="created-key" role="status" aria-labelledby="link-title">
          <h2 id="link-title">Sign-in link for {link.user.email}</h2>
          <p>
            Send it to them now: <strong>it is shown only this once</strong>, works once, and stops working <When iso={link.expires_at} /> (Brasília time). With
            it they choose their password and are signed in.
          </p>
          <label htmlFor="sign-in-link">Sign-in link</label>
          <div className="inline">
            <input id="sign-in-link" readOnly value={link.sign_in_url} size={60} data-testid="sign-in-link" />
            <CopyButton key={link.sign_in_url} text={link.sign_in_url} label="Copy link" id="sign-in-link" />
            <button type="button" className="secondary" onClick={() => shown(undefined)}>
              Done
            </button>
          </div>
        </div>
      )}
      {members && (
        <ScrollBox label="Users">
          <table data-testid="team">
            <caption className="visually-hidden">The account's console users, the oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">{withZone('Added')}</th>
                <th scope="col">{withZone('Last signed in')}</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.user_id} data-user-id={member.user_id}>
                  <td>
                    {member.email}
                    {member.email === session.email && <span className="muted"> (you)</span>}
                  </td>
                  <td>
                    <label className="visually-hidden" htmlFor={`role-${member.user_id}`}>
                      Role of {member.email}
                    </label>
                    <select
                      id={`role-${member.user_id}`}
                      value={member.role}
                      disabled={busy}
                      onChange={(event) => void changeRole(member, event.target.value as Role)}
                    >
                      {ROLES.map(([value]) => (
                        <option key={value} value={value}>
                          {ROLE[value]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <When iso={member.created_at} />
                  </td>
                  <td>{member.last_signed_in_at ? <When iso={member.last_signed_in_at} /> : 'Never'}</td>
                  <td>
                    {confirming !== member.user_id && (
                      <span className="inline">
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          aria-label={`New sign-in link for ${member.email}`}
                          onClick={() => void act('POST', `${userUrl(member.user_id)}/sign-in-link`)}
                        >
                          New link
                        </button>
                        <button type="button" className="danger" aria-label={`Remove ${member.email}`} onClick={() => setConfirming(member.user_id)}>
                          Remove
                        </button>
                      </span>
                    )}
                    {confirming === member.user_id && (
                      <span className="inline">
                        <span id={`confirm-${member.user_id}`}>They will be signed out at once and can no longer sign in.</span>
                        <button
                          type="button"
                          className="danger"
                          disabled={busy}
                          aria-describedby={`confirm-${member.user_id}`}
                          onClick={() => void remove(member)}
                        >
                          Yes, remove {member.email}
                        </button>
                        <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
                          Keep them
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </section>
  );
}
