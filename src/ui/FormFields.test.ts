import { describe, expect, it } from 'vitest';
import { readFieldValue } from '../core/forms/values';
import type { FormField } from '../modules/site/schema';
import { readFormInputs } from './FormFields';

const fields: FormField[] = [
  { id: 't', kind: 'text', title: 'T', required: true },
  { id: 'n', kind: 'name', title: 'N', required: false },
  { id: 'a', kind: 'address', title: 'A', required: false },
  { id: 'p', kind: 'phone', title: 'P', required: false, showCountryCode: true },
  { id: 'd', kind: 'date', title: 'D', required: false },
  { id: 'h', kind: 'time', title: 'H', required: false },
  { id: 'c', kind: 'checkbox', title: 'C', required: false, options: ['x', 'y'] },
  { id: 'l', kind: 'likert', title: 'L', required: false, questions: ['Q1', 'Q2'] },
];

describe('readFormInputs (what the form fields post → the raw values the core reads)', () => {
  it('maps part inputs onto the core parts, dates and times onto their parts, boxes and surveys onto their shapes', () => {
    const posted: Record<string, string[]> = {
      t: ['Sam'],
      'n.first': ['Ada'],
      'n.last': ['Lovelace'],
      'a.region': ['IL'],
      'a.postcode': ['62701'],
      'p.country': ['44'],
      'p.area': ['20'],
      'p.number': ['79460958'],
      d: ['2024-03-14'],
      h: ['14:05'],
      c: ['x', 'y'],
      'l.1': ['2'],
    };
    const raw = readFormInputs(fields, (name) => posted[name] ?? []);
    const byId = Object.fromEntries(fields.map((f) => [f.id, readFieldValue(f, raw[f.id])]));
    expect(byId).toEqual({
      t: 'Sam',
      n: ['Ada', 'Lovelace'],
      a: ['', '', '', 'IL', '62701', ''],
      p: ['44', '20', '', '79460958'],
      d: ['03', '14', '2024'],
      h: ['14', '05', '', ''],
      c: ['x', 'y'],
      l: { Q2: '2' },
    });
  });

  it('reads nothing posted as empty answers', () => {
    const raw = readFormInputs(fields, () => []);
    expect(readFieldValue(fields[4]!, raw.d)).toEqual(['', '', '']);
    expect(raw.t).toBe('');
    expect(raw.c).toEqual([]);
  });
});
