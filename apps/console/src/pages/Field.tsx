import type { ReactNode } from 'react';
import { inFormWords } from '../forms';

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
          {inFormWords(problem, label)}
        </small>
      ))}
    </div>
  );
}

/** What a document field says under it: the one wire form the API takes (docs/decisions/documents.md). */
export const DOCUMENT_HINT = 'Without punctuation: 11 digits for a CPF, 14 for a CNPJ, capital letters included (12ABC34501DE35).';

/**
 * A CPF or CNPJ input: a CNPJ may carry capital letters, so the keyboard is the text one, capitals first, and no
 * spelling correction touches it.
 */
export function DocumentInput({ id, name, required }: { id: string; name: string; required?: boolean }) {
  return <input id={id} name={name} required={required} autoCapitalize="characters" autoComplete="off" spellCheck={false} maxLength={14} />;
}
