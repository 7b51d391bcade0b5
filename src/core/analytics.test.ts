import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_LIMITS,
  isCommerceEventName,
  readCensusPayload,
  readClientErrors,
  readPerformanceRecords,
  sitePath,
  trackingErrorWarning,
} from './analytics';
import { browserFamily, deviceClass } from './userAgent';

describe('analytics input', () => {
  it('keeps site paths only, without query or fragment', () => {
    expect(sitePath('/shop/p/mug?x=1#top')).toBe('/shop/p/mug');
    expect(sitePath('//evil.test/x')).toBeNull();
    expect(sitePath('https://x.test/')).toBeNull();
    expect(sitePath('/a\nb')).toBeNull();
    expect(sitePath('/' + 'a'.repeat(600))!.length).toBe(500);
  });

  it('reads the §3 census payload: unknown fields dropped, texts cut, wrong types ignored', () => {
    expect(readCensusPayload('[1]')).toBeNull();
    expect(readCensusPayload('{')).toBeNull();
    expect(
      readCensusPayload(
        JSON.stringify({ pagePath: '/x', pageTitle: 't'.repeat(400), viewportWidth: '9', evil: 1, contentSource: 'z' }),
      ),
    ).toEqual({
      pagePath: '/x',
      pageTitle: 't'.repeat(300),
    });
  });

  it('rates performance records on the server and skips bad ones', () => {
    expect(
      readPerformanceRecords(
        JSON.stringify([
          { name: 'INP', value: 250, rating: 'good', path: '/' },
          { name: 'INP', value: Number.MAX_VALUE, path: '/' },
        ]),
      ),
    ).toEqual([{ name: 'INP', value: 250, rating: 'needs-improvement', path: '/' }]);
    expect(
      readPerformanceRecords(JSON.stringify(Array.from({ length: 51 }, () => ({ name: 'FCP', value: 1, path: '/' })))),
    ).toBeNull();
    expect(readPerformanceRecords('x')).toBeNull();
  });

  it('skips records that are not objects and reads a batch sent as { records }', () => {
    expect(
      readPerformanceRecords(JSON.stringify({ records: [null, 7, 'LCP', { name: 'LCP', value: 4100, path: '/a' }] })),
    ).toEqual([{ name: 'LCP', value: 4100, rating: 'poor', path: '/a' }]);
  });

  it('refuses a body over 32 KiB, or one that is not text, before reading it', () => {
    const big = JSON.stringify({ pagePath: '/', title: 'x'.repeat(ANALYTICS_LIMITS.bodyBytes) });
    expect(readCensusPayload(big)).toBeNull();
    // A parsed body (or a list holding the text) is not the text: never read by String() coercion.
    expect(readCensusPayload(['{"pagePath":"/"}'])).toBeNull();
    expect(
      readPerformanceRecords(JSON.stringify([{ name: 'LCP', value: 1, path: '/' + 'a'.repeat(40_000) }])),
    ).toBeNull();
    expect(readPerformanceRecords(['[]'])).toBeNull();
  });

  it('reads the error reporter batch: 1 to 10 events with a message, stacks cut at 5000', () => {
    expect(readClientErrors([])).toBeNull();
    expect(readClientErrors([{ stack: 'x' }])).toBeNull();
    const [event] = readClientErrors([{ message: ' boom ', stack: 's'.repeat(6000), url: 'https://shop.test/a/b?c' }])!;
    expect(event).toEqual({ message: 'boom', stack: 's'.repeat(5000), path: '/a/b' });
  });

  it('takes an error batch as { events } too, and refuses it whole when one event is not an object', () => {
    expect(readClientErrors({ events: [{ message: 'boom', path: '/shop?page=2' }] })).toEqual([
      { message: 'boom', stack: null, path: '/shop' },
    ]);
    expect(readClientErrors([{ message: 'boom' }, 'boom'])).toBeNull();
    expect(readClientErrors([{ message: 'boom' }, null])).toBeNull();
    expect(readClientErrors(Array.from({ length: 11 }, () => ({ message: 'boom' })))).toBeNull();
  });

  it("files an error under '/' when its page is not a site path or its URL cannot be read", () => {
    const paths = readClientErrors([
      { message: 'a', url: 'http://[' },
      { message: 'b', path: '//evil.test/x' },
      { message: 'c', path: 42 },
      { message: 'd' },
    ])!.map((e) => e.path);
    expect(paths).toEqual(['/', '/', '/', '/']);
  });

  it('knows §7 analytics events by name, nothing else', () => {
    expect(isCommerceEventName('CommerceShopping_AddToCart')).toBe(true);
    expect(isCommerceEventName('CommerceShopping_SaveCustomProductForm')).toBe(true);
    expect(isCommerceEventName('commerceshopping_addtocart')).toBe(false);
    expect(isCommerceEventName('toString')).toBe(false);
    expect(isCommerceEventName(undefined)).toBe(false);
  });

  it('words the §8 tracking warning', () => {
    expect(trackingErrorWarning(403)).toBe('Error tracking event: HTTP Status 403');
  });
});

describe('user agent', () => {
  it('keeps a browser family and a device class', () => {
    const edge =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0';
    const android =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36';
    const ipad =
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    expect([browserFamily(edge), deviceClass(edge)]).toEqual(['Edge', 'desktop']);
    expect([browserFamily(android), deviceClass(android)]).toEqual(['Chrome', 'mobile']);
    expect([browserFamily(ipad), deviceClass(ipad)]).toEqual(['Safari', 'tablet']);
    expect(browserFamily('Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0')).toBe('Firefox');
    expect(deviceClass('Googlebot/2.1')).toBe('bot');
    expect(deviceClass(undefined)).toBe('bot');
  });
});
