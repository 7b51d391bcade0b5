import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine } from '../../../../test/support/engines';
import { insertBareSite } from '../../../../test/support/bareSite';
import { compiledQuery } from './compiledQuery';

forEachEngine((_engine, getDb) => {
  describe('compiledQuery', () => {
    beforeAll(async () => {
      await insertBareSite(getDb(), 'cq', 'CQ');
    });

    const insertCart = compiledQuery((db, v: { id: string; siteId: string; now: string; claim: string | null }) =>
      db
        .insertInto('carts')
        .values({
          id: v.id,
          site_id: v.siteId,
          created_at: v.now,
          updated_at: v.now,
          is_purchased: 0,
          order_id: null,
          claim: v.claim,
        })
        .onConflict((oc) => oc.column('id').doNothing()),
    );
    const openCarts = compiledQuery((db, v: { siteId: string; since: string }) =>
      db
        .selectFrom('carts')
        .select(['id', 'claim'])
        .where('site_id', '=', v.siteId)
        .where('is_purchased', '=', 0)
        .where('created_at', '>=', v.since)
        .orderBy('id'),
    );

    it('runs the query built once with each run’s values, keeping the constants the builder wrote', async () => {
      const db = getDb();
      expect(
        (await insertCart.execute(db, { id: 'cart-b', siteId: 'cq', now: '2026-01-02T00:00:00.000Z', claim: null }))
          .numAffectedRows,
      ).toBe(1n);
      expect(
        (await insertCart.execute(db, { id: 'cart-a', siteId: 'cq', now: '2026-01-03T00:00:00.000Z', claim: 'x' }))
          .numAffectedRows,
      ).toBe(1n);
      // ON CONFLICT DO NOTHING: no row inserted, and the engine says so.
      expect(
        (await insertCart.execute(db, { id: 'cart-a', siteId: 'cq', now: '2026-01-04T00:00:00.000Z', claim: null }))
          .numAffectedRows,
      ).toBe(0n);
      const rows = await db
        .selectFrom('carts')
        .select(['id', 'created_at', 'is_purchased', 'order_id', 'claim'])
        .where('site_id', '=', 'cq')
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'cart-a', created_at: '2026-01-03T00:00:00.000Z', is_purchased: 0, order_id: null, claim: 'x' },
        { id: 'cart-b', created_at: '2026-01-02T00:00:00.000Z', is_purchased: 0, order_id: null, claim: null },
      ]);
      expect((await openCarts.execute(db, { siteId: 'cq', since: '2026-01-01T00:00:00.000Z' })).rows).toEqual([
        { id: 'cart-a', claim: 'x' },
        { id: 'cart-b', claim: null },
      ]);
      expect((await openCarts.execute(db, { siteId: 'cq', since: '2026-01-03T00:00:00.000Z' })).rows).toEqual([
        { id: 'cart-a', claim: 'x' },
      ]);
      expect((await openCarts.execute(db, { siteId: 'nope', since: '2026-01-01T00:00:00.000Z' })).rows).toEqual([]);
    });

    it('runs inside a transaction as well', async () => {
      const ids = await getDb()
        .transaction()
        .execute(async (trx) =>
          (await openCarts.execute(trx, { siteId: 'cq', since: '2026-01-03T00:00:00.000Z' })).rows.map((r) => r.id),
        );
      expect(ids).toEqual(['cart-a']);
    });

    it('builds the query anew, with the values, for a Kysely with plugins (they see every query as usual)', async () => {
      const seen: unknown[][] = [];
      const watching = getDb().withPlugin({
        transformQuery: ({ node }) => node,
        transformResult: async ({ result }) => result,
      });
      const recording = watching.withPlugin({
        transformQuery: (args) => {
          seen.push([...watching.getExecutor().compileQuery(args.node, args.queryId).parameters]);
          return args.node;
        },
        transformResult: async ({ result }) => result,
      });
      expect((await openCarts.execute(recording, { siteId: 'cq', since: '2026-01-03T00:00:00.000Z' })).rows).toEqual([
        { id: 'cart-a', claim: 'x' },
      ]);
      expect(seen).toEqual([['cq', 0, '2026-01-03T00:00:00.000Z']]);
    });

    it('refuses a builder that writes a value into the SQL text', async () => {
      const raw = compiledQuery((db, v: { id: string }) =>
        db
          .selectFrom('carts')
          .select('id')
          .where(sql<boolean>`id = ${sql.lit(v.id)}`),
      );
      await expect(raw.execute(getDb(), { id: 'cart-a' })).rejects.toThrow(/written into the SQL text/);
    });
  });
});
