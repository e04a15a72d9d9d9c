import type { ReactNode } from 'react';

/** A labelled form field with the API's problems about it beside it. */
export function Field({ id, label, problems, hint, children }: { id: string; label: string; problems?: string[]; hint?: string; children: ReactNode }) {
  return (
    <div className={`field${problems?.length ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {problems?.map((problem) => (
        <small key={problem} id={`${id}-problem`} className="error" role="alert">
          {problem}
        </small>
      ))}
    </div>
  );
}
