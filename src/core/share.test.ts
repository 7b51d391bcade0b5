import { describe, expect, it } from 'vitest';
import { shareLinks } from './share';

describe('shareLinks (plain links to each network’s share page)', () => {
  it('builds the default networks’ links from the post address and title', () => {
    const links = shareLinks('https://shop.example/blog/open-day', 'Open day & more');
    expect(links).toEqual([
      {
        network: 'facebook',
        label: 'Share on Facebook',
        href: 'https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fshop.example%2Fblog%2Fopen-day',
      },
      {
        network: 'x',
        label: 'Share on X',
        href: 'https://x.com/intent/post?url=https%3A%2F%2Fshop.example%2Fblog%2Fopen-day&text=Open+day+%26+more',
      },
      {
        network: 'linkedin',
        label: 'Share on LinkedIn',
        href: 'https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fshop.example%2Fblog%2Fopen-day',
      },
      {
        network: 'email',
        label: 'Share by email',
        href: 'mailto:?subject=Open%20day%20%26%20more&body=https%3A%2F%2Fshop.example%2Fblog%2Fopen-day',
      },
    ]);
  });
  it('offers the networks asked for, each once, in order', () => {
    expect(shareLinks('https://a.example/p', 'T', ['pinterest', 'x', 'pinterest']).map((l) => l.network)).toEqual([
      'pinterest',
      'x',
    ]);
    expect(shareLinks('https://a.example/p', 'T', ['pinterest'])[0]!.href).toBe(
      'https://www.pinterest.com/pin/create/button/?url=https%3A%2F%2Fa.example%2Fp&description=T',
    );
    expect(shareLinks('https://a.example/p', 'T', [])).toEqual([]);
  });
});
