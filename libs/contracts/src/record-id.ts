// Our records' ids (charges, refunds, payouts) are PostgreSQL bigints counted from 1, and JSON carries them as
// numbers. One rule reads an id a merchant sends, so no route hands the database a number it cannot hold or a
// 17-digit id that JavaScript has already rounded to a neighbour's.

/** The largest id a merchant can send and read back exactly. */
export const MAX_RECORD_ID = Number.MAX_SAFE_INTEGER;

/** An id sent as text (a path or query value): digits only, no leading zero, 1 to MAX_RECORD_ID; otherwise undefined. */
export function recordIdOf(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_RECORD_ID ? id : undefined;
}
