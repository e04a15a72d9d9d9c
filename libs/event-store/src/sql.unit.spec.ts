import { mergeRows, rowsSql, sql, StatementBuilder } from './sql';

describe('rowsSql and mergeRows', () => {
  const upsert = 'INSERT INTO t (a, b) SELECT * FROM unnest($1::text[], $2::int[])';

  it('is a statement of its own: each column an array of one value', () => {
    expect(rowsSql(upsert, ['x', 1])).toEqual({ text: upsert, values: [['x'], [1]], rows: [['x', 1]] });
  });

  it('merges writes with the same text into one, rows in order, and leaves the others as they are, in order', () => {
    const other = sql('UPDATE u SET n = $1', [7]);
    const merged = mergeRows([rowsSql(upsert, ['x', 1]), other, rowsSql(upsert, ['y', 2]), rowsSql('DELETE FROM t WHERE a = ANY($1)', ['z'])]);
    expect(merged.map((s) => [s.text, s.values])).toEqual([
      [
        upsert,
        [
          ['x', 'y'],
          [1, 2],
        ],
      ],
      ['UPDATE u SET n = $1', [7]],
      ['DELETE FROM t WHERE a = ANY($1)', [['z']]],
    ]);
  });

  it('never merges plain statements, even with the same text', () => {
    const once = sql('UPDATE u SET n = $1', [1]);
    const twice = sql('UPDATE u SET n = $1', [2]);
    expect(mergeRows([once, twice])).toEqual([once, twice]);
  });
});

describe('StatementBuilder', () => {
  it('renumbers an embedded statement after the parameters already there', () => {
    const b = new StatementBuilder();
    const first = b.param('a');
    const embedded = b.embed(sql('SELECT $1, $2', ['b', 'c']));
    expect([first, embedded, b.values]).toEqual(['$1', 'SELECT $2, $3', ['a', 'b', 'c']]);
  });
});
