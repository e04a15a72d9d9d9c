import { useEffect, useState, type FormEvent } from 'react';
import { problemsAbove, problemsByField, signInLinkRefusal, signInWithLink, type Session } from '../api';
import { Field } from './Field';

/**
 * Where a sign-in link opens (#/set-password/<token>): the user chooses their password, and is signed in. The token
 * leaves the address bar as the page opens. The page first asks the server whether the link can still be used: a used,
 * replaced or expired link says so instead of the form, and nobody types a password for nothing.
 */
export function SetPassword({ token, onSignedIn, onLeave }: { token: string; onSignedIn: (session: Session) => void; onLeave: () => void }) {
  const [error, setError] = useState<string>();
  // The server's answer when the link is unknown, used or expired: then no password can be set with it.
  const [dead, setDead] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState(false);
  // The two passwords typed differ: said beside the second, where the mistake is.
  const [differ, setDiffer] = useState(false);

  useEffect(() => {
    let current = true;
    void signInLinkRefusal(token).then(
      (refusal) => {
        if (!current) return;
        if (refusal?.status === 404) setDead(refusal.message);
        else if (refusal) setError(refusal.message);
        setChecked(true);
      },
      // Unanswered: the form shows, and using the link says what is wrong with it.
      () => current && setChecked(true),
    );
    return () => {
      current = false;
    };
  }, [token]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    setDiffer(password !== String(form.get('repeated')));
    if (password !== String(form.get('repeated'))) return setError(undefined);
    setBusy(true);
    const outcome = await signInWithLink(token, password);
    setBusy(false);
    if ('csrf_token' in outcome) onSignedIn(outcome);
    else if (outcome.status === 404) setDead(outcome.message);
    else setError(outcome.message);
  };

  if (dead)
    return (
      <main className="sign-in">
        <h1>This sign-in link no longer works</h1>
        <p role="alert" data-testid="link-dead">
          {dead}
        </p>
        <p>A link works once, within 24 hours, and a newer link replaces it. If you already chose your password, sign in with it.</p>
        <a
          className="button"
          href="#/"
          onClick={(event) => {
            event.preventDefault();
            onLeave();
          }}
        >
          Go to sign in
        </a>
      </main>
    );

  if (!checked)
    return (
      <main className="sign-in">
        <h1>pixauto console</h1>
        <p className="loading">Checking your sign-in link…</p>
      </main>
    );

  const problems = problemsByField(error === undefined ? undefined : { message: error });
  const above = problemsAbove(problems, ['password']);
  return (
    <main className="sign-in">
      <h1>pixauto console</h1>
      <p>Welcome. Choose the password you will sign in with: at least 12 characters (a few words make a good one).</p>
      <form onSubmit={(event) => void submit(event)} aria-describedby={above ? 'set-password-error' : undefined}>
        <Field id="password" label="New password" problems={problems.password}>
          <input id="password" name="password" type="password" autoComplete="new-password" minLength={12} maxLength={128} required />
        </Field>
        <Field id="repeated" label="Repeat the password" problems={differ ? ['The two passwords differ: type the same one twice'] : undefined}>
          <input id="repeated" name="repeated" type="password" autoComplete="new-password" minLength={12} maxLength={128} required />
        </Field>
        {above && (
          <p id="set-password-error" role="alert" className="error">
            {above}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Set password and sign in
        </button>
      </form>
    </main>
  );
}
