/**
 * Edits of the site from /admin (src/modules/site/edit.ts) on SQLite and PostgreSQL: an edit is a new version by its
 * author, with live stock kept; two editors who opened the same version and change different products both keep their
 * change (also when saving at the same moment); a second change of the same product is refused with what changed and
 * by whom, and nothing is written; so is a change of website settings someone else changed; an invalid change names
 * the field and writes nothing.
 */
import { expect, it } from 'vitest';
import { ok } from '../../src/core/result';
import { takeStock } from '../../src/modules/catalog';
import { editSite, type EditSubject, type SiteContent } from '../../src/modules/site/edit';
import { readSite, replaceSite } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import { shopSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';

const SITE = 'shop';

forEachEngine((_engine, getDb) => {
  const importShop = async () => {
    const valid = validateSite(structuredClone(shopSite));
    if (!valid.ok) throw new Error(valid.problems.join('\n'));
    return (await replaceSite(getDb(), valid.site, [], { stock: 'file' })).site.version;
  };
  const rename = (id: string, name: string) => (content: SiteContent) => {
    const product = content.site.products.find((p) => p.id === id);
    if (!product) throw new Error(`no product ${id}`);
    product.name = name;
    return ok(content);
  };
  const edit = (
    baseVersion: number,
    by: string,
    subjects: EditSubject[],
    change: Parameters<typeof editSite>[2]['change'],
  ) => editSite(getDb(), SITE, { baseVersion, subjects, change, author: { createdBy: by } });
  const stored = async () => (await readSite(getDb(), SITE))!.site;
  const version = async () =>
    (await getDb().selectFrom('sites').select('version').where('id', '=', SITE).executeTakeFirstOrThrow()).version;

  it('saves an edit as a new version by its author, keeping the stock sold since the form was opened', async () => {
    const base = await importShop();
    expect(await takeStock(getDb(), SITE, 'kit-1', 2)).toBe(true);
    const saved = await edit(base, 'owner@shop.test', [{ kind: 'product', id: 'kit' }], rename('kit', 'Starter kit'));
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.value.version).toMatchObject({ number: base + 1, createdBy: 'owner@shop.test', source: 'admin' });
    expect(saved.value.version.summary).toContain('Starter kit');
    const site = await stored();
    expect(site.products.find((p) => p.id === 'kit')!.name).toBe('Starter kit');
    expect(site.products.find((p) => p.id === 'kit')!.variants[0]!.stock).toEqual({ qtyInStock: 3 });
  });

  it('keeps both changes when two editors opened the same version and changed different products', async () => {
    const base = await importShop();
    const first = await edit(base, 'ann@shop.test', [{ kind: 'product', id: 'kit' }], rename('kit', 'Kit A'));
    const second = await edit(base, 'bob@shop.test', [{ kind: 'product', id: 'tee' }], rename('tee', 'Tee B'));
    expect([first.ok, second.ok]).toEqual([true, true]);
    const site = await stored();
    expect(site.products.find((p) => p.id === 'kit')!.name).toBe('Kit A');
    expect(site.products.find((p) => p.id === 'tee')!.name).toBe('Tee B');
  });

  it('loses no change when eight editors of different products save at the same moment', async () => {
    const base = await importShop();
    const ids = ['tee', 'kit', 'limited', 'ebook', 'gift', 'coffee', 'engraved', 'tee'] as const;
    const results = await Promise.all(
      ids.slice(0, 7).map((id) => edit(base, `${id}@shop.test`, [{ kind: 'product', id }], rename(id, `${id} edited`))),
    );
    expect(results.map((r) => r.ok)).toEqual(Array(7).fill(true));
    const site = await stored();
    for (const id of ids.slice(0, 7)) expect(site.products.find((p) => p.id === id)!.name).toBe(`${id} edited`);
    expect(await version()).toBe(base + 7);
  });

  it('refuses a change of a product someone else changed since, saying what and by whom, and writes nothing', async () => {
    const base = await importShop();
    expect((await edit(base, 'ann@shop.test', [{ kind: 'product', id: 'kit' }], rename('kit', 'Kit A'))).ok).toBe(true);
    const after = await version();
    const late = await edit(base, 'bob@shop.test', [{ kind: 'product', id: 'kit' }], rename('kit', 'Kit B'));
    expect(late).toEqual({
      ok: false,
      error: {
        type: 'STALE',
        message: `Not saved: this was changed since you opened it, by ann@shop.test (version ${after}). Reload to see the changes, then make yours again.`,
        changes: ['Product “Kit A” (kit): name changed'],
      },
    });
    expect(await version()).toBe(after);
    expect((await stored()).products.find((p) => p.id === 'kit')!.name).toBe('Kit A');
  });

  it('refuses a change of website settings someone else changed since', async () => {
    const base = await importShop();
    const retitle = (title: string) => (content: SiteContent) => {
      content.site.website.title = title;
      return ok(content);
    };
    const subject: EditSubject[] = [{ kind: 'settings', keys: ['title'] }];
    expect((await edit(base, 'ann@shop.test', subject, retitle('Ann’s shop'))).ok).toBe(true);
    const late = await edit(base, 'bob@shop.test', subject, retitle('Bob’s shop'));
    expect(late.ok).toBe(false);
    if (late.ok) return;
    expect(late.error).toMatchObject({ type: 'STALE', changes: ['Website settings: title changed'] });
    expect((await stored()).website.title).toBe('Ann’s shop');
  });

  it('refuses an invalid change with the field that is wrong, and writes nothing', async () => {
    const base = await importShop();
    const result = await edit(base, 'ann@shop.test', [{ kind: 'product', id: 'kit' }], (content) => {
      content.site.products.find((p) => p.id === 'kit')!.variants[0]!.price = -5;
      return ok(content);
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.type).toBe('INVALID');
    expect(result.error.message).toMatch(/^Not saved: products\[\d+\] \(id 'kit', "Kit"\)\.variants\[0\]\.price: /);
    expect(await version()).toBe(base);
  });

  it('says so for a version the site never had', async () => {
    await importShop();
    const result = await edit(9_999, 'ann@shop.test', [], (content) => ok(content));
    expect(result).toEqual({ ok: false, error: { type: 'NOT_FOUND', message: 'This site has no version 9999.' } });
  });
});
