import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine } from '../../../../test/support/engines';
import { insertBareSite } from '../../../../test/support/bareSite';
import { err, ok } from '../../../core/result';
import { compiledQuery } from './compiledQuery';
import { heldStatements } from './heldConnection';
import { inTransaction } from '../transaction';

forEachEngine((engine, getDb) => {
  describe('statements run inside inTransaction', () => {
    beforeAll(async () => {
      await insertBareSite(getDb(), 'held', 'Held');
    });

    const insertCart = compiledQuery((db, v: { id: string }) =>
      db.insertInto('carts').values({
        id: v.id,
        site_id: 'held',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        is_purchased: 0,
        order_id: null,
        claim: null,
      }),
    );
    const cartIds = compiledQuery((db, v: { siteId: string }) =>
      db.selectFrom('carts').select('id').where('site_id', '=', v.siteId).orderBy('id'),
    );
    const storedIds = async () => (await cartIds.execute(getDb(), { siteId: 'held' })).rows.map((r) => r.id);

    it(
      engine === 'sqlite'
        ? 'run straight on the connection the transaction holds, and only while it holds it'
        : 'go through Kysely (pg has no held connection)',
      async () => {
        let inside: unknown;
        let connection: unknown;
        await inTransaction(getDb(), async (trx) => {
          inside = heldStatements(trx);
          connection = trx;
          return ok(undefined);
        });
        expect(inside !== undefined).toBe(engine === 'sqlite');
        expect(heldStatements(connection as never)).toBeUndefined();
        expect(heldStatements(getDb())).toBeUndefined();
      },
    );

    it('commit what a successful Result wrote, and see their own writes before', async () => {
      const result = await inTransaction(getDb(), async (trx) => {
        await insertCart.execute(trx, { id: 'held-kept' });
        return ok((await cartIds.execute(trx, { siteId: 'held' })).rows.map((r) => r.id));
      });
      expect(result).toEqual({ ok: true, value: ['held-kept'] });
      expect(await storedIds()).toEqual(['held-kept']);
    });

    it('leave nothing behind when the Result fails or the work throws', async () => {
      const refused = await inTransaction(getDb(), async (trx) => {
        await insertCart.execute(trx, { id: 'held-refused' });
        return err('refused');
      });
      expect(refused).toEqual({ ok: false, error: 'refused' });
      await expect(
        inTransaction(getDb(), async (trx) => {
          await insertCart.execute(trx, { id: 'held-thrown' });
          throw new Error('broken');
        }),
      ).rejects.toThrow('broken');
      // A statement that fails (the same id again) rolls its transaction back like any error.
      await expect(
        inTransaction(getDb(), async (trx) => {
          await insertCart.execute(trx, { id: 'held-dup' });
          await insertCart.execute(trx, { id: 'held-dup' });
          return ok(undefined);
        }),
      ).rejects.toThrow();
      expect(await storedIds()).toEqual(['held-kept']);
    });

    it('never let a query from outside the transaction run inside it', async () => {
      let release!: () => void;
      const paused = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const transaction = inTransaction(getDb(), async (trx) => {
        await insertCart.execute(trx, { id: 'held-uncommitted' });
        wrote();
        // Holds the connection, its write not committed, while the query below is sent (a payment call, say).
        await paused;
        return err('rolled back');
      });
      await written;
      const outside = storedIds();
      // Let the outside query start if it can (on SQLite it waits for the connection), then roll back.
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      expect(await transaction).toEqual({ ok: false, error: 'rolled back' });
      expect(await outside).toEqual(['held-kept']);
    });
  });
});
