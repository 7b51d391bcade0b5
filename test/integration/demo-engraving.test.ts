/**
 * Issue 23 item 13: the demo's engraving field says 'Up to 20 characters' and holds to it, on SQLite and PostgreSQL:
 * the cart refuses a longer text with the §5 message, takes 20, and the field's input (here on the form page a
 * visitor without JavaScript gets) stops at 20.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_SITE_FILE } from '../../src/cli/run';
import { buildApp } from '../../src/server/app';
import { importSiteFile } from '../../src/modules/site/import';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';

const HOST = 'localhost';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await importSiteFile(getDb(), DEMO_SITE_FILE);
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
  });
  afterAll(async () => {
    await app?.close();
  });

  const add = (engraving: string) =>
    app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({
        itemId: 'engraved-mug',
        sku: 'MUG-ENGR',
        quantity: 1,
        additionalFields: { 'engraving-text': engraving, lettering: 'Serif' },
      }),
    });

  it('refuses an engraving over 20 characters and takes one of 20', async () => {
    const long = await add('Happy birthday to the best potter in the world!!!');
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({
      code: 'invalid-form-answers',
      message: 'Engraving text: You have exceeded the character limit.',
      fields: { 'engraving-text': 'You have exceeded the character limit.' },
    });
    expect((await add('Happy birthday, Sam!')).statusCode).toBe(200);
  });

  it('gives the engraving input a maximum of 20 characters', async () => {
    const page = await app.inject({
      method: 'POST',
      url: '/cart/add',
      headers: {
        host: HOST,
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        origin: `http://${HOST}`,
        referer: `http://${HOST}/shop/p/engraved-mug`,
      },
      payload: new URLSearchParams({
        crumb: TEST_CRUMB,
        itemId: 'engraved-mug',
        sku: 'MUG-ENGR',
        quantity: '1',
      }).toString(),
    });
    expect(page.statusCode).toBe(200);
    const input = /<input[^>]*name="engraving-text"[^>]*>/.exec(page.body)?.[0];
    expect(input).toMatch(/ maxlength="20"/i);
  });
});
