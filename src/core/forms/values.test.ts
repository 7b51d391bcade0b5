import { describe, expect, it } from 'vitest';
import type { FormField, HiddenField, LikertField } from './fields';
import { hiddenFieldValue, phoneValue, readFieldValue } from './values';

const field = (kind: FormField['kind'], extra: object = {}): FormField =>
  ({ id: 'f', title: 'F', required: false, kind, ...extra }) as FormField;

describe('field values (§3)', () => {
  it('gives a 3-part phone value an empty first part', () => {
    expect(phoneValue(['555', '123', '4567'])).toEqual(['', '555', '123', '4567']);
    expect(phoneValue(['44', '20', '7946', '0958'])).toEqual(['44', '20', '7946', '0958']);
    expect(phoneValue(['1'])).toEqual(['1', '', '', '']);
    expect(readFieldValue(field('phone'), ['555', '123', '4567'])).toEqual(['', '555', '123', '4567']);
  });

  it('reads multi-part values as arrays of child values', () => {
    expect(readFieldValue(field('name'), ['Ada', 'Lovelace', 'extra'])).toEqual(['Ada', 'Lovelace']);
    expect(readFieldValue(field('date'), ['12', 10, null])).toEqual(['12', '10', '']);
    expect(readFieldValue(field('time'), { hour: '9', minute: '05', ampm: 'AM', junk: 'x' })).toEqual([
      '9',
      '05',
      '',
      'AM',
    ]);
    expect(readFieldValue(field('address'), 'not parts')).toEqual(['', '', '', '', '', '']);
  });

  it('reads checkbox values as the checked values', () => {
    expect(readFieldValue(field('checkbox'), ['Red', '', 3, {}])).toEqual(['Red', '3']);
    expect(readFieldValue(field('checkbox'), 'Red')).toEqual(['Red']);
    expect(readFieldValue(field('checkbox'), undefined)).toEqual([]);
  });

  it('reads radio, select and text as single values', () => {
    expect(readFieldValue(field('radio', { options: ['A'] }), 'A')).toBe('A');
    expect(readFieldValue(field('select', { options: ['A'] }), ['A'])).toBe('');
    expect(readFieldValue(field('number'), 42)).toBe('42');
    expect(readFieldValue(field('text'), Number.NaN)).toBe('');
    expect(readFieldValue(field('textarea'), 'line\nline')).toBe('line\nline');
  });

  it('reads likert as question → selected value, ignoring unknown questions', () => {
    const likert = field('likert', { questions: ['Fast?', 'Friendly?'] }) as LikertField;
    expect(readFieldValue(likert, { 'Fast?': '2', 'Friendly?': '', 'Other?': '1' })).toEqual({ 'Fast?': '2' });
    expect(readFieldValue(likert, { 'Fast?': -1 })).toEqual({ 'Fast?': '-1' });
    expect(readFieldValue(likert, ['2'])).toEqual({});
    expect(readFieldValue(likert, null)).toEqual({});
  });

  it('takes a hidden value from the query string by field name, else its own', () => {
    const hidden: HiddenField = {
      id: 'utm_source',
      kind: 'hidden',
      title: 'Campaign source',
      required: false,
      value: 'direct',
    };
    expect(hiddenFieldValue(hidden, '?utm_source=newsletter&x=1')).toBe('newsletter');
    // The title is what submissions show, not the field's name.
    expect(hiddenFieldValue(hidden, '?Campaign%20source=ad')).toBe('direct');
    expect(hiddenFieldValue(hidden, 'utm_source=a%20b')).toBe('a b');
    expect(hiddenFieldValue(hidden, '?utm_source=')).toBe('direct');
    expect(hiddenFieldValue(hidden, '?other=1')).toBe('direct');
    expect(hiddenFieldValue(hidden, '%E0%A4%A')).toBe('direct');
  });
});
