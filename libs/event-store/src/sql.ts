/** A parameterised SQL statement ($1, $2, ... refer to values). */
export interface SqlStatement {
  text: string;
  values: unknown[];
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
