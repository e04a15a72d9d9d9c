import { useState, type FormEvent } from 'react';
import { typedIn } from '../forms';
import { Alert } from './Alert';

/** How the API names one record: its id (digits only) or your transaction_id. */
export type OneOf = { id: number } | { transaction_id: string };

/** Opens one record by what the merchant typed; `find` answers the API's refusal, or nothing once it went there. */
export function FindOne({ name, find }: { name: string; find: (query: OneOf) => Promise<string | undefined> }) {
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wanted = typedIn(event.currentTarget)('wanted');
    setError(await find(/^[0-9]+$/.test(wanted) ? { id: Number(wanted) } : { transaction_id: wanted }));
  };

  return (
    <>
      <form onSubmit={(event) => void submit(event)} className="inline" aria-label={name}>
        <label htmlFor="wanted">Find by id or your transaction_id</label>
        <input id="wanted" name="wanted" required />
        <button type="submit" className="secondary">
          Find
        </button>
      </form>
      <Alert message={error} />
    </>
  );
}
