import { useCallback, useEffect, useState } from 'react';
import { currentSession, type Session } from './api';
import { Shell } from './Shell';
import { SetPassword } from './pages/SetPassword';
import { SignIn } from './pages/SignIn';

/** A sign-in link's token, when the page was opened by one (#/set-password/<token>). */
const linkToken = (): string | undefined => /^#\/set-password\/([A-Za-z0-9_-]+)$/.exec(window.location.hash)?.[1];

/** Where a sign-in link's page stays once its token has left the address bar. */
const LINK_PAGE = '#/set-password';

export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [token, setToken] = useState(linkToken);
  const reload = useCallback(() => void currentSession().then((found) => setSession(found ?? null)), []);
  useEffect(reload, [reload]);
  useEffect(() => {
    // A link pasted into a tab that already shows the console changes only the fragment.
    const opened = () => setToken((held) => linkToken() ?? (window.location.hash === LINK_PAGE ? held : undefined));
    window.addEventListener('hashchange', opened);
    return () => window.removeEventListener('hashchange', opened);
  }, []);
  useEffect(() => {
    // The page keeps the token; the address bar and the history entry lose it at once, before anything is typed.
    if (token && linkToken()) window.history.replaceState(null, '', LINK_PAGE);
  }, [token]);

  const signedInWithLink = (signedIn: Session) => {
    // The link is used up: it leaves the address bar and the history entry.
    window.history.replaceState(null, '', '#/sandbox/overview');
    setToken(undefined);
    setSession(signedIn);
  };

  const leaveLink = () => {
    window.history.replaceState(null, '', '#/');
    setToken(undefined);
  };

  if (!session) document.title = token ? 'Choose your password · pixauto console' : 'Sign in · pixauto console';
  if (token) return <SetPassword token={token} onSignedIn={signedInWithLink} onLeave={leaveLink} />;
  if (session === undefined) return <p className="loading">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={setSession} />;
  return <Shell session={session} onSignedOut={() => setSession(null)} onSessionChanged={reload} />;
}
