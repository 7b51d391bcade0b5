import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFreshDb, type FreshDb } from '../../../../test/support/engines';

let fresh: FreshDb;
beforeAll(async () => {
  fresh = await createFreshDb('postgres', { migrate: false });
});
afterAll(async () => fresh?.dispose());

it('prepares a parameterised statement once per connection and runs it again by name; BEGIN and texts without parameters stay unnamed', async () => {
  const prepared = await fresh.db.connection().execute(async (conn) => {
    for (const n of [1, 2, 3]) {
      const row = await sql<{ n: number }>`select ${n}::int + 1 as n`.execute(conn);
      expect(row.rows[0]!.n).toBe(n + 1);
    }
    await sql`select 42`.execute(conn);
    return (
      await sql<{ statement: string }>`select statement from pg_prepared_statements order by prepare_time`.execute(conn)
    ).rows.map((r) => r.statement);
  });
  expect(prepared).toEqual(['select $1::int + 1 as n']);
});
