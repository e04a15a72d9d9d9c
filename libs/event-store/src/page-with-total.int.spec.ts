import { DataSource } from 'typeorm';
import { ListQuery, pageWithTotal } from './sql';
import { createTestDataSource, dropTestDataSource } from './testing/test-database';

// A list's page and its total in one statement, on the real PostgreSQL server.

let dataSource: DataSource;

beforeAll(async () => {
  dataSource = await createTestDataSource('page_with_total');
  await dataSource.query('CREATE TABLE items (id int PRIMARY KEY, owner text NOT NULL, created_at timestamptz NOT NULL)');
  await dataSource.query(
    `INSERT INTO items SELECT n, CASE WHEN n % 2 = 0 THEN 'ana' ELSE 'bia' END, '2026-11-01T00:00:00Z'::timestamptz + n * interval '1 hour' FROM generate_series(1, 9) AS n`,
  );
});

afterAll(() => dropTestDataSource(dataSource));

const ofOwner = (owner: string): ListQuery => ({
  table: 'items',
  columns: 'id, created_at',
  where: 'owner = $1',
  params: [owner],
  orderBy: 'created_at DESC, id DESC',
});

describe('pageWithTotal', () => {
  it('answers a page in its order, with the total of every row matching, and the rows as they are (types kept, no extra column)', async () => {
    const { total, rows } = await pageWithTotal<{ id: number; created_at: Date }>(dataSource, ofOwner('bia'), { page: 1, page_size: 2 });
    expect(total).toBe(5);
    expect(rows).toEqual([
      { id: 5, created_at: new Date('2026-11-01T05:00:00Z') },
      { id: 3, created_at: new Date('2026-11-01T03:00:00Z') },
    ]);
  });

  it('a page past the last is empty and still knows the total; nothing matching is a total of 0', async () => {
    expect(await pageWithTotal(dataSource, ofOwner('ana'), { page: 2, page_size: 3 })).toEqual({ total: 4, rows: [] });
    expect(await pageWithTotal(dataSource, ofOwner('caio'), { page: 0, page_size: 3 })).toEqual({ total: 0, rows: [] });
  });

  it('reads the page and its total in one statement', async () => {
    const statements: string[] = [];
    const counting = { query: (text: string, values: unknown[]) => (statements.push(text), dataSource.query(text, values)) };
    expect((await pageWithTotal(counting, ofOwner('ana'), { page: 0, page_size: 10 })).total).toBe(4);
    expect(statements).toHaveLength(1);
  });
});
