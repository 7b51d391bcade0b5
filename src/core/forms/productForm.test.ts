import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../canonicalJson';
import type { FormDefinition } from './fields';
import { checkProductFormAnswers, parseProductFormAnswers, productFormRefusalMessage } from './productForm';

const engraving: FormDefinition = {
  id: 'engraving',
  name: 'Engraving',
  fields: [
    { id: 'text', kind: 'text', title: 'Engraving text', required: true },
    { id: 'lettering', kind: 'radio', title: 'Lettering', required: true, options: ['Serif', 'Sans'] },
    { id: 'notes', kind: 'textarea', title: 'Notes', required: false, maxLength: 5 },
    { id: 'source', kind: 'hidden', title: 'source', required: false, value: 'pdp' },
  ],
  captcha: { enabled: true },
};

describe('parseProductFormAnswers', () => {
  it('reads JSON object text; anything else is no answers', () => {
    expect(parseProductFormAnswers('{"a":"x"}')).toEqual({ a: 'x' });
    for (const text of ['', '  ', '{oops', '[1]', '"x"', 'null']) expect(parseProductFormAnswers(text)).toEqual({});
  });
});

describe('checkProductFormAnswers', () => {
  it('refuses missing required answers with the §5 texts, one message naming the fields in form order', () => {
    expect(checkProductFormAnswers(engraving, {})).toEqual({
      ok: false,
      error: {
        fields: { text: 'Required', lettering: 'Required' },
        message: 'Engraving text: Required. Lettering: Required.',
      },
    });
  });

  it('keeps a message that already ends with a full stop as it is', () => {
    const checked = checkProductFormAnswers(engraving, { text: 'Sam', lettering: 'Serif', notes: 'too long' });
    expect(checked).toEqual({
      ok: false,
      error: {
        fields: { notes: 'You have exceeded the character limit.' },
        message: 'Notes: You have exceeded the character limit.',
      },
    });
  });

  it('accepts valid answers without a CAPTCHA (an add is not a form submission) and gives canonical JSON of every field', () => {
    const checked = checkProductFormAnswers(engraving, { lettering: 'Serif', text: 'Sam', unknown: 'dropped' });
    expect(checked).toEqual({ ok: true, value: '{"lettering":"Serif","notes":"","source":"pdp","text":"Sam"}' });
  });

  it('names only fields of the form in the message', () => {
    expect(productFormRefusalMessage(engraving, { nope: 'Required', text: 'Required' })).toBe(
      'Engraving text: Required.',
    );
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level and refuses nesting past the limit', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
    expect(canonicalJson([[[1]]], 2)).toBeUndefined();
    expect(canonicalJson({ a: { b: {} } }, 2)).toBeUndefined();
    expect(canonicalJson('x')).toBe('"x"');
  });
});
