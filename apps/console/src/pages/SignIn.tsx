import { useState, type FormEvent } from 'react';
import { signIn, type Session } from '../api';

export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const outcome = await signIn(String(form.get('email')), String(form.get('password')));
    setBusy(false);
    if ('csrf_token' in outcome) onSignedIn(outcome);
    else setError(outcome.message);
  };

  return (
    <main className="sign-in">
      <h1>pixauto console</h1>
      <p>Sign in to manage your recurrences, charges, payouts and webhooks.</p>
      <form onSubmit={(event) => void submit(event)} aria-describedby={error ? 'sign-in-error' : undefined}>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        {error && (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
