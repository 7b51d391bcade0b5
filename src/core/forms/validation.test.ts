import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormDefinition, FormField } from './fields';
import {
  FIELD_MESSAGES,
  characterCount,
  notAnOptionMessage,
  textareaCounter,
  validateField,
  validateForm,
} from './validation';

const field = (kind: FormField['kind'], required: boolean, extra: object = {}): FormField =>
  ({ id: 'f', title: 'F', required, kind, ...extra }) as FormField;

describe('field messages (§5)', () => {
  it('are verbatim', () => {
    expect(FIELD_MESSAGES.required).toBe('Required');
    expect(FIELD_MESSAGES.likertMissing).toBe('Survey is not valid. Missing a required question.');
    expect(FIELD_MESSAGES.characterLimit).toBe('You have exceeded the character limit.');
    expect(FIELD_MESSAGES.captchaIncomplete).toBe('Complete CAPTCHA before submitting.');
    expect(notAnOptionMessage('Blue')).toBe('Blue is not one of the expected options');
  });
});

describe('validateField', () => {
  const options = { options: ['Red', 'Green'] };
  it.each<[string, FormField, Parameters<typeof validateField>[1], string | null]>([
    ['required text empty', field('text', true), '  ', 'Required'],
    ['required text filled', field('text', true), 'hi', null],
    ['optional text empty', field('text', false), '', null],
    ['required select empty', field('select', true, options), '', 'Required'],
    ['required radio empty', field('radio', true, options), '', 'Required'],
    ['radio offered option', field('radio', true, options), 'Red', null],
    ['radio unknown option', field('radio', false, options), 'Blue', 'Blue is not one of the expected options'],
    ['required checkbox none', field('checkbox', true, options), [], 'Required'],
    ['optional checkbox none', field('checkbox', false, options), [], null],
    ['checkbox checked', field('checkbox', true, options), ['Green'], null],
    ['checkbox unknown', field('checkbox', true, options), ['Red', 'Pink'], 'Pink is not one of the expected options'],
    ['required name all empty', field('name', true), ['', ' '], 'Required'],
    ['required name one part', field('name', true), ['Ada', ''], null],
    ['required address all empty', field('address', true), ['', '', '', '', '', ''], 'Required'],
    ['required phone all empty', field('phone', true), ['', '', '', ''], 'Required'],
    ['optional date empty', field('date', false), ['', '', ''], null],
    [
      'email invalid',
      field('email', false),
      'nope',
      'Email is not valid. Email addresses should follow the format email@example.com.',
    ],
    ['email valid', field('email', true), ' ada@example.com ', null],
    ['email required empty', field('email', true), '', 'Required'],
    [
      'url invalid',
      field('url', false),
      'javascript:alert(1)',
      'URL is not valid. URLs should follow the format https://www.example.com.',
    ],
    ['url valid', field('url', false), 'example.com', null],
    ['number valid', field('number', false), '-12.5e3', null],
    ['number invalid', field('number', false), '12abc', 'Number is not valid.'],
    ['textarea at max', field('textarea', false, { maxLength: 5 }), 'abcde', null],
    [
      'textarea over max',
      field('textarea', false, { maxLength: 5 }),
      'abcdef',
      'You have exceeded the character limit.',
    ],
    ['textarea max 0', field('textarea', false, { maxLength: 0 }), 'a'.repeat(10_000), null],
    ['text at max', field('text', true, { maxLength: 20 }), 'Happy birthday, Sam!', null],
    [
      'text over max',
      field('text', true, { maxLength: 20 }),
      'Happy birthday, Samantha',
      'You have exceeded the character limit.',
    ],
    ['text without max', field('text', false), 'a'.repeat(10_000), null],
    ['hidden', field('hidden', true, { value: '' }), '', null],
  ])('%s', (_, f, value, expected) => {
    expect(validateField(f, value)).toBe(expected);
  });

  const likert = (required: boolean) => field('likert', required, { questions: ['Fast?', 'Friendly?'] });
  it.each<[string, FormField, Record<string, string>, string | null]>([
    ['required, all answered', likert(true), { 'Fast?': '2', 'Friendly?': '-2' }, null],
    ['required, one missing', likert(true), { 'Fast?': '2' }, 'Survey is not valid. Missing a required question.'],
    ['optional, none', likert(false), {}, null],
    ['off-scale answer', likert(false), { 'Fast?': '7' }, '7 is not one of the expected options'],
  ])('likert %s', (_, f, value, expected) => {
    expect(validateField(f, value)).toBe(expected);
  });

  it('treats a map given to a single-value field as empty', () => {
    expect(validateField(field('text', true), {})).toBe('Required');
    expect(validateField(field('text', false), {})).toBeNull();
  });

  it('treats a non-map likert value as unanswered', () => {
    expect(validateField(likert(true), ['2'])).toBe('Survey is not valid. Missing a required question.');
  });
});

describe('textarea counter (§5)', () => {
  it.each([
    ['abc', 10, { text: '3 / 10', over: false }],
    ['abcdefghij', 10, { text: '10 / 10', over: false }],
    ['abcdefghijk', 10, { text: '11 / 10', over: true }],
    ['', 5, { text: '0 / 5', over: false }],
    ['😀\r\n', 5, { text: '2 / 5', over: false }],
    ['abc', 0, null],
    ['abc', -3, null],
    ['abc', 2.5, null],
    ['abc', Number.NaN, null],
    ['abc', '10', null],
    ['abc', undefined, null],
  ])('%j with max %s', (text, max, expected) => {
    expect(textareaCounter(text, max)).toEqual(expected);
  });

  it('counts characters as shoppers do', () => {
    expect(characterCount('a\r\nb')).toBe(3);
  });
});

describe('validateForm', () => {
  const definition: FormDefinition = {
    id: 'contact',
    name: 'Contact',
    fields: [
      { id: 'name', kind: 'name', title: 'Name', required: true },
      { id: 'email', kind: 'email', title: 'Email', required: true },
      { id: 'phone', kind: 'phone', title: 'Phone', required: false },
      { id: 'topic', kind: 'select', title: 'Topic', required: false, options: ['Order', 'Other'] },
      { id: 'source', kind: 'hidden', title: 'utm_source', required: false, value: 'site' },
      { id: 'message', kind: 'textarea', title: 'Message', required: false, maxLength: 10 },
    ],
  };

  it('returns the values in their §3 shapes when valid', () => {
    const result = validateForm(definition, {
      name: ['Ada', 'Lovelace'],
      email: 'ada@example.com',
      phone: ['555', '123', '4567'],
      extra: 'x',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        name: ['Ada', 'Lovelace'],
        email: 'ada@example.com',
        phone: ['', '555', '123', '4567'],
        topic: '',
        source: 'site',
        message: '',
      },
    });
  });

  it('keys errors by field id', () => {
    const result = validateForm(definition, {
      name: ['', ''],
      email: 'bad',
      topic: 'Refund',
      message: 'x'.repeat(11),
      source: 'ad',
    });
    expect(result).toEqual({
      ok: false,
      error: {
        fields: {
          name: 'Required',
          email: 'Email is not valid. Email addresses should follow the format email@example.com.',
          topic: 'Refund is not one of the expected options',
          message: 'You have exceeded the character limit.',
        },
        form: null,
      },
    });
  });

  it('reads a non-object submission as empty', () => {
    for (const raw of [null, 'x', ['a'], 5]) {
      const result = validateForm(definition, raw);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.keys(result.error.fields)).toEqual(['name', 'email']);
    }
  });

  it('needs a completed CAPTCHA when the form has one', () => {
    const withCaptcha: FormDefinition = { ...definition, fields: [], captcha: { enabled: true, siteKey: 'k' } };
    expect(validateForm(withCaptcha, {})).toEqual({
      ok: false,
      error: { fields: {}, form: 'Complete CAPTCHA before submitting.' },
    });
    expect(validateForm(withCaptcha, {}, '  ')).toEqual({
      ok: false,
      error: { fields: {}, form: 'Complete CAPTCHA before submitting.' },
    });
    expect(validateForm(withCaptcha, {}, 'token')).toEqual({ ok: true, value: {} });
    expect(validateForm({ ...withCaptcha, captcha: { enabled: false } }, {})).toEqual({ ok: true, value: {} });
  });
});

describe('validateForm on any input', () => {
  it('never throws', () => {
    const definition: FormDefinition = {
      id: 'all',
      name: 'All kinds',
      captcha: { enabled: true },
      fields: [
        { id: 'a', kind: 'address', title: 'A', required: true },
        { id: 'b', kind: 'checkbox', title: 'B', required: true, options: ['x'] },
        { id: 'c', kind: 'likert', title: 'C', required: true, questions: ['q'] },
        { id: 'd', kind: 'phone', title: 'D', required: false },
        { id: 'e', kind: 'email', title: 'E', required: false },
        { id: 'f', kind: 'url', title: 'F', required: false },
        { id: 'g', kind: 'number', title: 'G', required: false },
        { id: 'h', kind: 'textarea', title: 'H', required: false, maxLength: 3 },
        { id: 'i', kind: 'select', title: 'I', required: false, options: ['x'] },
        { id: 'j', kind: 'hidden', title: 'J', required: false, value: 'v' },
      ],
    };
    const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j');
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.dictionary(ids, fc.anything())), fc.anything(), (values, token) => {
        const result = validateForm(definition, values, token as string);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});
