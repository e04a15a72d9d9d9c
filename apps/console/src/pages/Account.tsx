import { useState, type FormEvent } from 'react';
import { consoleCall, problemsAbove, problemsByField } from '../api';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { Field } from './Field';

/** The signed-in user's own account: who they are, and their password. */
export function Account({ session }: PageContext) {
  const [problems, setProblems] = useState<Record<string, string[]>>({});
  const [changed, setChanged] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setChanged(false);
    if (data.get('new_password') !== data.get('repeated')) return setProblems({ repeated: ['The two new passwords differ: type the same one twice'] });
    setBusy(true);
    const { error } = await consoleCall(session, 'POST', '/console/v1/password', {
      current_password: String(data.get('current_password')),
      new_password: String(data.get('new_password')),
    });
    setBusy(false);
    setProblems(problemsByField(error));
    if (!error) {
      form.reset();
      setChanged(true);
    }
  };

  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Your account</h1>
      <p>
        You are signed in as <strong>{session.email}</strong>, {session.role} of this account.
      </p>
      <h2>Change your password</h2>
      <form onSubmit={(event) => void submit(event)} aria-label="Change your password">
        <Field id="current-password" label="Current password" problems={problems.current_password}>
          <input id="current-password" name="current_password" type="password" autoComplete="current-password" maxLength={128} required />
        </Field>
        <Field id="new-password" label="New password" problems={problems.new_password} hint="At least 12 characters.">
          <input
            id="new-password"
            name="new_password"
            type="password"
            autoComplete="new-password"
            minLength={12}
            maxLength={128}
            required
            aria-describedby="new-password-hint"
          />
        </Field>
        <Field id="repeated" label="Repeat the new password" problems={problems.repeated}>
          <input id="repeated" name="repeated" type="password" autoComplete="new-password" minLength={12} maxLength={128} required />
        </Field>
        <Alert message={problemsAbove(problems, ['current_password', 'new_password', 'repeated'])} />
        <button type="submit" disabled={busy}>
          Change password
        </button>
      </form>
      {changed && (
        <p role="status" className="notice">
          Your password is changed. Your other sessions, in other browsers, have ended.
        </p>
      )}
    </section>
  );
}
