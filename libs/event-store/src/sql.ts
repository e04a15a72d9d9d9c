/** A parameterised SQL statement ($1, $2, ... refer to values). */
export interface SqlStatement {
  text: string;
  values: unknown[];
  /** Set by rowsSql: the values row by row, so that writes with the same text can become one statement (mergeRows). */
  rows?: unknown[][];
}

/**
 * A write of one row through unnest: `text` takes each column as an array ($1 the first column's values, and so on).
 * Writes with the same text merge into one statement of many rows, as when an append covers many streams. One
 * statement must not write a row twice (ON CONFLICT's rule): each such write is keyed by the row it writes.
 */
export const rowsSql = (text: string, row: unknown[]): SqlStatement => ({ text, values: row.map((value) => [value]), rows: [row] });

/** Writes through unnest with the same text become one, their rows in order; other statements stay as they are. */
export function mergeRows(statements: SqlStatement[]): SqlStatement[] {
  const rowsByText = new Map<string, unknown[][]>();
  const merged: (SqlStatement | { text: string; rows: unknown[][] })[] = [];
  for (const statement of statements) {
    const rows = statement.rows && rowsByText.get(statement.text);
    if (rows) rows.push(...(statement.rows ?? []));
    else if (statement.rows) {
      const first = { text: statement.text, rows: [...statement.rows] };
      rowsByText.set(statement.text, first.rows);
      merged.push(first);
    } else merged.push(statement);
  }
  return merged.map((statement) =>
    'values' in statement
      ? statement
      : { text: statement.text, rows: statement.rows, values: statement.rows[0].map((_, column) => statement.rows.map((row) => row[column])) },
  );
}

export const sql = (text: string, values: unknown[] = []): SqlStatement => ({ text, values });

/** Builds one statement out of parts, numbering parameters as they come. */
export class StatementBuilder {
  readonly values: unknown[] = [];

  /** A placeholder for the value. */
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** Another statement's text, its parameters renumbered after the ones already here. */
  embed(statement: SqlStatement): string {
    const offset = this.values.length;
    this.values.push(...statement.values);
    return statement.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
  }
}
