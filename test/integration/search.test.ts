/**
 * Site search (/search, page type 102) on both engines, through the real import and the page route: ranking,
 * tags, variant values, pages and blog posts, escaped highlights, paging, bad queries, the census and the page
 * cache, the rate limit, the index kept in step with imports, and migration 010 indexing sites already stored.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_MESSAGES, SEARCH_PAGE_SIZE } from '../../src/core/search';
import { SEARCH_COUNT_CAP } from '../../src/core/search';
import { migrations, migrateToLatest } from '../../src/platform/db/migrations';
import { searchFollowUps } from '../../src/modules/search';
import { SEARCH_RATE_LIMIT } from '../../src/platform/http/rateLimits';
import { buildApp } from '../../src/server/app';
import { importSite, SiteFileError } from '../../src/modules/site/import';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { DEMO_SITE_FILE } from '../browser/server';
import { createFreshDb, describeEachEngine, forEachEngine } from '../support/engines';

const HOST = 'search.test';
const OTHER_HOST = 'other-search.test';
const tmp = mkdtempSync(join(tmpdir(), 'vitrine-search-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Product = NonNullable<SiteFileInput['products']>[number];
const product = (id: string, name: string, extra: Partial<Product> = {}): Product => ({
  id,
  collectionId: 'shop',
  slug: id,
  name,
  productType: 1,
  variants: [{ sku: `${id}-1`, price: 1000, stock: { qtyInStock: 5 } }],
  ...extra,
});

/** 25 'widget' products for paging, named so their order is visible. */
const widgets = Array.from({ length: 25 }, (_, i) =>
  product(`widget-${i + 1}`, `Widget ${String(i + 1).padStart(2, '0')}`),
);

function searchSite(change: (site: SiteFileInput) => void = () => {}): SiteFileInput {
  const site: SiteFileInput = {
    version: 1,
    website: { id: 'searchable', title: 'Searchable Shop', domains: [HOST], default: true, currency: 'USD' },
    collections: [
      { id: 'shop', type: 'products', title: 'Shop', slug: 'shop' },
      { id: 'journal', type: 'blog', title: 'Journal', slug: 'journal' },
    ],
    products: [
      // First in the file, and 'walnut' four times in its description: still ranked below a name match.
      product('tray', 'Serving Tray', { description: 'A tray of walnut. Oiled walnut, walnut handles, walnut feet.' }),
      product('board', 'Walnut Board', { description: 'A board for bread.' }),
      product('blanket', 'Wool Blanket', { tags: ['picnic', 'outdoors'], description: 'Warm.' }),
      product('tee', 'Plain Tee', {
        variantOptions: [{ name: 'Colour', values: ['Indigo', 'Rust'] }],
        variants: [
          { sku: 'tee-indigo', attributes: { Colour: 'Indigo' }, price: 2000, stock: { qtyInStock: 1 } },
          { sku: 'tee-rust', attributes: { Colour: 'Rust' }, price: 2000, stock: { qtyInStock: 1 } },
        ],
      }),
      product('creme', 'Crème Brûlée Dish', { description: 'Ramekin.' }),
      product('danger', '<img src=x onerror=alert(1)> Danger Mug', {
        description: '<script>alert("x")</script> dangerous description',
      }),
      product('oldname', 'Copper Kettle', { description: 'Whistles.' }),
      product('doomed', 'Marble Pestle', { description: 'Grinds.' }),
      ...widgets,
    ],
    pages: [
      { id: 'home', path: '/', title: 'Home', blocks: [{ type: 'text', text: 'Welcome.' }] },
      {
        id: 'visit',
        path: '/visit',
        title: 'Visit us',
        blocks: [
          { type: 'heading', text: 'Opening hours', level: 2 },
          { type: 'text', text: 'The studio in Harbourside is open Thursday to Sunday.' },
        ],
      },
    ],
    posts: [
      {
        id: 'post-1',
        collectionId: 'journal',
        slug: 'kiln-day',
        title: 'Kiln day',
        publishedOn: '2026-01-10',
        excerpt: 'Firing the big kiln.',
        body: 'We loaded forty bowls and a teapot. The cone pack bent at dawn.',
        tags: ['process'],
        categories: ['Studio'],
      },
    ],
  };
  change(site);
  return site;
}

const otherSite: SiteFileInput = {
  version: 1,
  website: { id: 'other', title: 'Other Shop', domains: [OTHER_HOST], currency: 'USD' },
  collections: [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }],
  products: [product('secret', 'Walnut Secret Box', { description: 'Only on the other site.' })],
};

/** A site with more matches than the count's cap (SEARCH_COUNT_CAP + 20 'gizmo' names), and one word in each tier. */
const MANY_HOST = 'many-search.test';
const gizmos = Array.from({ length: SEARCH_COUNT_CAP + 20 }, (_, i) =>
  product(`gizmo-${i + 1}`, `Gizmo ${String(i + 1).padStart(3, '0')}`),
);
const manySite: SiteFileInput = {
  version: 1,
  website: { id: 'many', title: 'Many Shop', domains: [MANY_HOST], currency: 'USD' },
  collections: [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }],
  products: [
    // In the file's order: the text match first, the title match last; the search shows them the other way round.
    product('in-text', 'Plain Box', { description: 'Holds a sprocket.' }),
    product('in-tags', 'Tin Box', { tags: ['sprocket'] }),
    product('in-title', 'Sprocket Set'),
    ...gizmos,
  ],
};

const load = (db: Parameters<typeof importSite>[0], site: SiteFileInput) => importSite(db, JSON.stringify(site), tmp);

/** The result links of a search page, in order. */
const resultPaths = (html: string): string[] =>
  [...html.matchAll(/<h2 class="search-result__title"><a href="([^"]+)"/g)].map((m) => m[1]!);
const summaryOf = (html: string): string | undefined => /<p class="search-page__summary">([^<]*)<\/p>/.exec(html)?.[1];

/** A client address of its own per request: the search's per-client budget is tested on its own. */
let clients = 0;
const freshIp = () => `10.1.${(++clients >> 8) & 255}.${clients & 255}`;

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  const get = (url: string, host = HOST, remoteAddress = freshIp()) =>
    app.inject({ method: 'GET', url, headers: { host }, remoteAddress });
  const search = async (q: string, page?: number) => {
    const res = await get(`/search?q=${encodeURIComponent(q)}${page ? `&page=${page}` : ''}`);
    return { status: res.statusCode, html: res.body, paths: resultPaths(res.body), summary: summaryOf(res.body) };
  };

  beforeAll(async () => {
    await load(getDb(), searchSite());
    await load(getDb(), otherSite);
    await load(getDb(), manySite);
    app = await buildApp({ db: getDb(), engine });
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('finding and ranking', () => {
    it('ranks a name match above a description match, whatever the site file order', async () => {
      const { status, paths, summary } = await search('walnut');
      expect(status).toBe(200);
      expect(paths).toEqual(['/shop/p/board', '/shop/p/tray']);
      expect(summary).toBe('2 results for “walnut”');
    });

    it('finds products by their tags and by their variant values, and shows the matching one marked', async () => {
      const picnic = await search('picnic');
      expect(picnic.paths).toEqual(['/shop/p/blanket']);
      expect(picnic.html).toContain('<p class="search-result__details"><mark>picnic</mark>, outdoors</p>');
      const indigo = await search('indigo');
      expect(indigo.paths).toEqual(['/shop/p/tee']);
      expect(indigo.html).toContain('<mark>Indigo</mark>, Rust');
    });

    it('finds pages by their text and headings, and blog posts by their body and tags', async () => {
      const hours = await search('harbourside');
      expect(hours.paths).toEqual(['/visit']);
      expect(hours.html).toContain('<p class="search-result__kind">Page</p>');
      expect(hours.html).toContain('The studio in <mark>Harbourside</mark> is open Thursday to Sunday.');
      expect((await search('opening')).paths).toEqual(['/visit']);
      const teapot = await search('teapot');
      expect(teapot.paths).toEqual(['/journal/kiln-day']);
      expect(teapot.html).toContain('<p class="search-result__kind">Blog post</p>');
      expect((await search('process')).paths).toEqual(['/journal/kiln-day']);
      // The result links to a page that is there.
      expect((await get('/journal/kiln-day')).statusCode).toBe(200);
    });

    it('matches words by their start, without case or accents, and needs every word', async () => {
      expect((await search('WALN')).paths).toEqual(['/shop/p/board', '/shop/p/tray']);
      const creme = await search('creme brulee');
      expect(creme.paths).toEqual(['/shop/p/creme']);
      expect(creme.html).toContain('<mark>Crème</mark> <mark>Brûlée</mark> Dish');
      expect((await search('walnut bread')).paths).toEqual(['/shop/p/board']);
      // No document holds 'zebra': those holding 'walnut' are shown, labelled as holding some of the words.
      const zebra = await search('walnut zebra');
      expect(zebra.summary).toBe('No results have every word of “walnut zebra”.');
      expect(zebra.paths).toEqual(['/shop/p/tray', '/shop/p/board']);
    });

    it('when no document holds every word, shows those holding some of them, most words first, each saying what it lacks', async () => {
      const { status, html, paths, summary } = await search('kettle walnut bread');
      expect(status).toBe(200);
      expect(summary).toBe('No results have every word of “kettle walnut bread”.');
      expect(html).toContain(
        '<p class="search-page__partial" id="search-partial">3 results with some of the words:</p>',
      );
      expect(html).toContain('<ol class="search-results" start="1" aria-labelledby="search-partial">');
      // The board holds two of the words; the tray and the kettle one each, in the site file's order.
      expect(paths).toEqual(['/shop/p/board', '/shop/p/tray', '/shop/p/oldname']);
      expect([...html.matchAll(/<p class="search-result__missing">([^<]*)<\/p>/g)].map((m) => m[1])).toEqual([
        'Missing: kettle',
        'Missing: kettle, bread',
        'Missing: walnut, bread',
      ]);
      // The words each one holds are marked.
      expect(html).toContain('<a href="/shop/p/board"><mark>Walnut</mark> Board</a>');
      expect(html).toContain('<a href="/shop/p/oldname">Copper <mark>Kettle</mark></a>');
      // No document holds any word, or one word alone: no such list.
      const none = await search('zebra yak');
      expect(none.summary).toBe('No results for “zebra yak”.');
      expect(none.html).not.toContain('search-page__partial');
      expect((await search('walnut')).html).not.toContain('search-result__missing');
    });

    it('pages through the results holding some of the words', async () => {
      const first = await search('widget zebra');
      expect(first.html).toContain('25 results with some of the words:');
      expect(first.paths).toEqual(widgets.slice(0, SEARCH_PAGE_SIZE).map((w) => `/shop/p/${w.slug}`));
      const third = await search('widget zebra', 3);
      expect(third.paths).toEqual(widgets.slice(20).map((w) => `/shop/p/${w.slug}`));
      expect(third.html).toContain('<span class="search-pages__current" aria-current="page">Page 3 of 3</span>');
    });

    it('searches only the site of the request', async () => {
      expect((await search('secret')).paths).toEqual([]);
      const other = await get('/search?q=walnut', OTHER_HOST);
      expect(resultPaths(other.body)).toEqual(['/shop/p/secret']);
    });
  });

  describe('the page', () => {
    it('marks matches with <mark> around escaped text, never markup from the site file', async () => {
      const { html, paths } = await search('danger');
      expect(paths).toEqual(['/shop/p/danger']);
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; <mark>Danger</mark> Mug');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; <mark>dangerous</mark> description');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('<script>alert');
      // The query itself is shown escaped too.
      const typed = await search('<b>walnut</b>');
      expect(typed.html).toContain('Search results for “&lt;b&gt;walnut&lt;/b&gt;”');
      expect(typed.html).not.toContain('<b>walnut</b>');
      // Its words are 'b' and 'walnut': only the board has a word starting with b.
      expect(typed.paths).toEqual(['/shop/p/board']);
    });

    it('is page type 102, sends no page view, is not indexed, and has one labelled search form', async () => {
      const { html } = await search('walnut');
      expect(html).toContain('<body data-page-type="102"');
      const census = /data-census="([^"]*)"/.exec(html)?.[1]?.replaceAll('&quot;', '"');
      expect(JSON.parse(census!)).toMatchObject({ pageView: false, websiteId: 'searchable' });
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html.match(/role="search"/g)).toHaveLength(1);
      expect(html).toContain('<label for="search-query" class="search-form__label">Search this site</label>');
      expect(html).toMatch(/<input id="search-query" type="search"[^>]* name="q" value="walnut"\/>/);
    });

    it('puts a search form in every other page’s header', async () => {
      for (const path of ['/', '/visit', '/shop', '/shop/p/board', '/cart', '/journal/kiln-day', '/no-such-page']) {
        const html = (await get(path)).body;
        expect(html, path).toContain(
          '<form class="search-form search-form--compact" role="search" action="/search" method="get"><label for="site-search" class="visually-hidden">Search this site</label>',
        );
      }
    });

    it('shows the form alone for an empty search, and says so for a query with no word in it', async () => {
      const empty = await get('/search');
      expect(empty.statusCode).toBe(200);
      expect(resultPaths(empty.body)).toEqual([]);
      expect(empty.body).toContain('<h1>Search</h1>');
      expect(summaryOf(empty.body)).toBeUndefined();
      const punctuation = await search('"*" -:');
      expect(punctuation.status).toBe(200);
      expect(punctuation.html).toContain(SEARCH_MESSAGES.noWords);
    });

    it('pages through results ten at a time, with previous and next links', async () => {
      const first = await search('widget');
      expect(first.summary).toBe('25 results for “widget”');
      expect(first.paths).toEqual(widgets.slice(0, SEARCH_PAGE_SIZE).map((w) => `/shop/p/${w.slug}`));
      expect(first.html).toContain('<nav class="search-pages" aria-label="Pages of results">');
      expect(first.html).toContain('href="/search?q=widget&amp;page=2">Next');
      expect(first.html).not.toContain('rel="prev"');
      expect(first.html).toContain('<span class="search-pages__current" aria-current="page">Page 1 of 3</span>');
      const third = await search('widget', 3);
      expect(third.paths).toEqual(widgets.slice(20).map((w) => `/shop/p/${w.slug}`));
      expect(third.html).toContain('<ol class="search-results" start="21">');
      expect(third.html).toContain('href="/search?q=widget&amp;page=2">Previous');
      expect(third.html).not.toContain('rel="next"');
      const beyond = await search('widget', 4);
      expect(beyond.status).toBe(200);
      expect(beyond.paths).toEqual([]);
      expect(beyond.html).toContain(
        'There are no results on page 4. <a href="/search?q=widget">See the first page of results</a>.',
      );
      expect(beyond.html).not.toContain('class="search-pages"');
    });

    it('ranks title matches, then tags and variant values, then text, each in the site file’s order', async () => {
      const res = await get('/search?q=sprocket', MANY_HOST);
      expect(resultPaths(res.body)).toEqual(['/shop/p/in-title', '/shop/p/in-tags', '/shop/p/in-text']);
    });

    it('counts up to the cap: past it, "More than" the cap, and pages follow one another without a last page number', async () => {
      const page = async (n?: number) => {
        const res = await get(`/search?q=gizmo${n ? `&page=${n}` : ''}`, MANY_HOST);
        expect(res.statusCode).toBe(200);
        return { html: res.body, paths: resultPaths(res.body), summary: summaryOf(res.body) };
      };
      const first = await page();
      expect(first.summary).toBe(`More than ${SEARCH_COUNT_CAP} results for “gizmo”`);
      expect(first.paths).toEqual(gizmos.slice(0, SEARCH_PAGE_SIZE).map((g) => `/shop/p/${g.slug}`));
      expect(first.html).toContain('<span class="search-pages__current" aria-current="page">Page 1</span>');
      expect(first.html).toContain('href="/search?q=gizmo&amp;page=2">Next');
      // Past the cap, pages go on as long as there are results, in order.
      const lastPage = Math.ceil(gizmos.length / SEARCH_PAGE_SIZE);
      const last = await page(lastPage);
      expect(last.paths).toEqual(gizmos.slice((lastPage - 1) * SEARCH_PAGE_SIZE).map((g) => `/shop/p/${g.slug}`));
      expect(last.html).toContain(`<ol class="search-results" start="${(lastPage - 1) * SEARCH_PAGE_SIZE + 1}">`);
      expect(last.html).toContain(`<span class="search-pages__current" aria-current="page">Page ${lastPage}</span>`);
      expect(last.html).toContain(`href="/search?q=gizmo&amp;page=${lastPage - 1}">Previous`);
      expect(last.html).not.toContain('rel="next"');
      const beyond = await page(lastPage + 1);
      expect(beyond.paths).toEqual([]);
      expect(beyond.html).toContain(
        `There are no results on page ${lastPage + 1}. <a href="/search?q=gizmo">See the first page of results</a>.`,
      );
      expect(beyond.html).not.toContain('class="search-pages"');
      // Under the cap the count is exact: 'gizmo 0' finds Gizmo 001 to 099, not 100 to 120.
      const exact = await get('/search?q=gizmo+0', MANY_HOST);
      expect(summaryOf(exact.body)).toBe(`${SEARCH_COUNT_CAP - 1} results for “gizmo 0”`);
      expect(exact.body).toContain(`Page 1 of ${Math.ceil((SEARCH_COUNT_CAP - 1) / SEARCH_PAGE_SIZE)}`);
    });

    it('is rendered for each query, never kept in the page cache', async () => {
      await get('/');
      const size = app.pageCache.size;
      for (const q of ['walnut', 'picnic', 'indigo', 'widget', 'zzz']) await search(q);
      expect(app.pageCache.size).toBe(size);
    });
  });

  describe('bad queries', () => {
    it('answers 400 with the form and what was wrong for a query too long (10 kB too), and for a bad page number', async () => {
      for (const q of ['a'.repeat(201), 'walnut '.repeat(1500)]) {
        const res = await get(`/search?q=${encodeURIComponent(q)}`);
        expect(res.statusCode).toBe(400);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain(
          `<p id="search-message" class="search-page__message search-page__message--error">${SEARCH_MESSAGES.tooLong}</p>`,
        );
        expect(res.body).toContain('aria-invalid="true"');
      }
      for (const page of ['0', '-1', '1.5', 'abc', '101', '99999999999999999999', '%00']) {
        const res = await get(`/search?q=widget&page=${page}`);
        expect(res.statusCode, page).toBe(400);
        expect(res.body).toContain(SEARCH_MESSAGES.badPage);
      }
      // Exactly the longest query accepted.
      expect((await get(`/search?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
    });

    it('never fails on full-text syntax, odd Unicode or broken escapes: they are separators or words', async () => {
      const queries = [
        '"',
        '""',
        '"walnut',
        'walnut"',
        '*',
        'walnut*',
        '*walnut',
        'NEAR(walnut board)',
        'NEAR(',
        'walnut NOT board',
        'walnut OR x',
        '-walnut',
        'walnut -board',
        'title_terms:walnut',
        ':',
        "'",
        "walnut's",
        "''",
        '\\',
        '\\\\',
        '&',
        '|',
        '!',
        '<->',
        'walnut:*',
        '(',
        ')',
        '{',
        '}',
        '^walnut',
        '+walnut',
        'AND',
        'OR',
        'NOT',
        '%',
        '_',
        '\u0000',
        'walnut\u0000board',
        '🍄 walnut',
        '👩‍👩‍👧',
        'عربي',
        'שלום walnut',
        '中文',
        'ǅ ʼ ͅ',
        'e\u0301',
        '\u200b',
        '\ufeffwalnut',
        'a'.repeat(40) + 'b'.repeat(160),
        'a b c d e f g h i j k l m n o p',
        Array.from({ length: 100 }, (_, i) => `w${i}`)
          .join(' ')
          .slice(0, 200),
      ];
      for (const q of queries) {
        const res = await get(`/search?q=${encodeURIComponent(q)}`);
        expect(res.statusCode, JSON.stringify(q)).toBe(200);
      }
      for (const raw of [
        'q=%ED%A0%80',
        'q=%',
        'q=%E0%A4%A',
        'q=%FF%FE',
        'q=walnut&q=board',
        'q[]=walnut',
        'q[a]=1',
        'page=2',
        'q=walnut&page=',
        'q',
      ]) {
        const res = await get(`/search?${raw}`);
        expect(res.statusCode, raw).toBe(200);
      }
      // Quoted and apostrophe words are searched as words.
      expect((await search('"walnut"')).paths).toEqual(['/shop/p/board', '/shop/p/tray']);
      // 'NEAR' is a word no document holds: the documents holding 'walnut' are shown as holding some of the words.
      const near = await search('NEAR(walnut');
      expect(near.summary).toBe('No results have every word of “NEAR(walnut”.');
      expect(near.html).toContain('<p class="search-result__missing">Missing: near</p>');
      // The first query value is the one searched.
      expect(resultPaths((await get('/search?q=picnic&q=walnut')).body)).toEqual(['/shop/p/blanket']);
    });

    it('searches at most 8 words and says so', async () => {
      const { status, html } = await search('walnut a b c d e f g h i');
      expect(status).toBe(200);
      expect(html).toContain(SEARCH_MESSAGES.termsDropped);
    });

    it('has a per-client budget: past it, 429 with the §8 message, and other clients are still served', async () => {
      const ip = '10.9.9.9';
      const statuses: number[] = [];
      for (let i = 0; i <= SEARCH_RATE_LIMIT; i++) statuses.push((await get(`/search?q=w${i}`, HOST, ip)).statusCode);
      expect(statuses.slice(0, SEARCH_RATE_LIMIT).every((s) => s === 200)).toBe(true);
      expect(statuses[SEARCH_RATE_LIMIT]).toBe(429);
      const refused = await get('/search?q=walnut', HOST, ip);
      expect(refused.body).toContain('Please try again in a few seconds.');
      expect((await get('/search?q=walnut', HOST, '10.9.9.10')).statusCode).toBe(200);
      // Pages keep no budget.
      expect((await get('/visit', HOST, ip)).statusCode).toBe(200);
    });
  });

  describe('kept in step with imports', () => {
    it('drops a removed product, finds a renamed one by its new name only, and a refused import changes nothing', async () => {
      expect((await search('pestle')).paths).toEqual(['/shop/p/doomed']);
      expect((await search('kettle')).paths).toEqual(['/shop/p/oldname']);
      await load(
        getDb(),
        searchSite((site) => {
          site.products = site.products!.filter((p) => p.id !== 'doomed');
          site.products.find((p) => p.id === 'oldname')!.name = 'Brass Teapot Stand';
        }),
      );
      expect((await search('pestle')).paths).toEqual([]);
      expect((await search('kettle')).paths).toEqual([]);
      expect((await search('brass')).paths).toEqual(['/shop/p/oldname']);
      // 'teapot' is now in a product name and a post body: the name ranks first.
      expect((await search('teapot')).paths).toEqual(['/shop/p/oldname', '/journal/kiln-day']);

      const refused = searchSite((site) => {
        site.products = [product('lonely', 'Lonely Product', { collectionId: 'no-such-collection' })];
      });
      await expect(load(getDb(), refused)).rejects.toBeInstanceOf(SiteFileError);
      expect((await search('brass')).paths).toEqual(['/shop/p/oldname']);
      expect((await search('lonely')).paths).toEqual([]);
    });
  });
});

describeEachEngine(
  (engine) => `migration 010 on ${engine}`,
  (engine) => {
    it('indexes the sites already stored when it runs (its follow-up in the search module)', async () => {
      const fresh = await createFreshDb(engine);
      try {
        await load(fresh.db, searchSite());
        const migrator = new Migrator({ db: fresh.db, provider: { getMigrations: async () => migrations(engine) } });
        // Back to before the search (its table gone), then forward again: the stored site is indexed.
        const down = await migrator.migrateTo('009_restock');
        expect(down.error).toBeUndefined();
        await expect(fresh.db.selectFrom('search_documents').select('id').execute()).rejects.toThrow();
        await migrateToLatest(fresh.db, searchFollowUps);
        const app = await buildApp({ db: fresh.db, engine });
        try {
          const res = await app.inject({ method: 'GET', url: '/search?q=walnut', headers: { host: HOST } });
          expect(resultPaths(res.body)).toEqual(['/shop/p/board', '/shop/p/tray']);
          const post = await app.inject({ method: 'GET', url: '/search?q=teapot', headers: { host: HOST } });
          expect(resultPaths(post.body)).toEqual(['/journal/kiln-day']);
        } finally {
          await app.close();
        }
      } finally {
        await fresh.dispose();
      }
    });
  },
);

describeEachEngine(
  (engine) => `the demo's search on ${engine}`,
  (engine) => {
    it("shows each product's picture, price and mark; 'mugs cobalt' shows what holds some of the words, labelled so", async () => {
      const fresh = await createFreshDb(engine);
      try {
        await importSite(fresh.db, readFileSync(DEMO_SITE_FILE, 'utf8'), dirname(DEMO_SITE_FILE));
        const app = await buildApp({ db: fresh.db, engine });
        try {
          const res = await app.inject({ method: 'GET', url: '/search?q=mugs+cobalt', headers: { host: 'localhost' } });
          expect(res.statusCode).toBe(200);
          const html = res.body;
          expect(summaryOf(html)).toBe('No results have every word of “mugs cobalt”.');
          expect(html).toContain(
            '<p class="search-page__partial" id="search-partial">5 results with some of the words:</p>',
          );
          expect(resultPaths(html)).toEqual([
            '/shop/p/speckled-mug',
            '/shop/p/bud-vase',
            '/shop/p/engraved-mug',
            '/coming-soon',
            '/blog/glaze-notes-cobalt',
          ]);
          const results = html.split('<li class="search-result').slice(1);
          const missing = results.map((r) => /<p class="search-result__missing">([^<]*)<\/p>/.exec(r)?.[1]);
          expect(missing).toEqual([
            'Missing: cobalt',
            'Missing: mugs',
            'Missing: cobalt',
            'Missing: cobalt',
            'Missing: mugs',
          ]);
          // Products: their first picture (linking to the product) and their price; the sold-out vase its mark too.
          const [mug, vase, engraved, page, post] = results as [string, string, string, string, string];
          expect(mug).toMatch(
            /^ search-result--product"><a class="search-result__media" href="\/shop\/p\/speckled-mug"[^>]*><img src="\/assets\/demo\/images\/speckled-mug-oatmeal\.jpg\?v=1&amp;format=100w"[^>]* alt="Oatmeal speckled stoneware mug"/,
          );
          expect(mug).toContain(
            '<div class="search-result__price"><p class="price-block"><span class="price">$28.00</span></p></div>',
          );
          expect(vase).toContain('alt="Cobalt blue bud vase"');
          expect(vase).toContain('<span class="price">$38.00 – $46.00</span>');
          expect(vase).toContain('<span class="product-mark product-mark--status">next kiln soon</span>');
          expect(engraved).toContain('<span class="price">$39.00</span>');
          // Pages and posts have neither.
          for (const other of [page, post]) {
            expect(other).not.toContain('<img');
            expect(other).not.toContain('search-result__price');
          }
          // A search every word of which a product holds shows its picture and price too.
          const full = await app.inject({
            method: 'GET',
            url: '/search?q=speckled+mug',
            headers: { host: 'localhost' },
          });
          expect(summaryOf(full.body)).toMatch(/^\d+ results? for “speckled mug”$/);
          expect(full.body).not.toContain('search-page__partial');
          expect(full.body).toContain('<span class="price">$28.00</span>');
          expect(full.body).toContain('speckled-mug-oatmeal.jpg?v=1&amp;format=100w');
        } finally {
          await app.close();
        }
      } finally {
        await fresh.dispose();
      }
    });
  },
);
