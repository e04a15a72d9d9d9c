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

/** A list of a read model: the rows matching `where` (its parameters $1... in `params`), in `orderBy`. */
export interface ListQuery {
  table: string;
  columns: string;
  where: string;
  params: unknown[];
  orderBy: string;
}

/** Which page of a list, as the lists take it: `page` counted from 0, `page_size` rows. */
export interface PageOf {
  page: number;
  page_size: number;
}

/**
 * One page and how many rows match in all, in one statement (the count an InitPlan, computed once): one snapshot, so
 * the total and the page agree while rows are being added, and one round trip. A page past the last has no row to
 * carry the total: it is counted apart.
 */
export async function pageWithTotal<Row>(
  db: { query(text: string, values: unknown[]): Promise<unknown[]> },
  list: ListQuery,
  { page, page_size }: PageOf,
): Promise<{ total: number; rows: Row[] }> {
  const count = `SELECT count(*)::int AS page_total__ FROM ${list.table} WHERE ${list.where}`;
  const next = list.params.length + 1;
  const found = (await db.query(
    `SELECT ${list.columns}, (${count}) AS page_total__ FROM ${list.table} WHERE ${list.where} ORDER BY ${list.orderBy} LIMIT $${next} OFFSET $${next + 1}`,
    [...list.params, page_size, page * page_size],
  )) as ({ page_total__: number } & Record<string, unknown>)[];
  if (found.length === 0) {
    const [{ page_total__: total }] = (await db.query(count, list.params)) as { page_total__: number }[];
    return { total, rows: [] };
  }
  return { total: found[0].page_total__, rows: found.map(({ page_total__: _total, ...row }) => row as Row) };
}
