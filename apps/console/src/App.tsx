import { useEffect, useState } from 'react';
import { currentSession, type Session } from './api';
import { Shell } from './Shell';
import { SignIn } from './pages/SignIn';

export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  useEffect(() => {
    void currentSession().then((found) => setSession(found ?? null));
  }, []);
  if (session === undefined) return <p className="loading">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={setSession} />;
  return <Shell session={session} onSignedOut={() => setSession(null)} />;
}
