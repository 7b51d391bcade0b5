import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIKERT_LABELS,
  FIELD_PARTS,
  FORM_FIELD_KINDS,
  LIKERT_SCALE,
  isFormFieldKind,
  isMultiPartKind,
  isSingleValueKind,
} from './fields';

describe('form field kinds (§3)', () => {
  it('covers every kind of §3', () => {
    expect([...FORM_FIELD_KINDS].sort()).toEqual(
      [
        'address',
        'checkbox',
        'date',
        'email',
        'hidden',
        'likert',
        'name',
        'number',
        'phone',
        'radio',
        'select',
        'text',
        'textarea',
        'time',
        'url',
      ].sort(),
    );
  });

  it('classifies kinds', () => {
    expect(isSingleValueKind('textarea')).toBe(true);
    expect(isSingleValueKind('name')).toBe(false);
    expect(isMultiPartKind('phone')).toBe(true);
    expect(isMultiPartKind('checkbox')).toBe(false);
    expect(isFormFieldKind('likert')).toBe(true);
    expect(isFormFieldKind('signature')).toBe(false);
    expect(isFormFieldKind(1)).toBe(false);
  });

  it('has four phone parts with the country code first', () => {
    expect(FIELD_PARTS.phone).toEqual(['countryCode', 'areaCode', 'prefix', 'line']);
    expect(FIELD_PARTS.address).toHaveLength(6);
  });

  it('has the likert scale -2 to 2 with the default labels (§9)', () => {
    expect(LIKERT_SCALE).toEqual(['-2', '-1', '0', '1', '2']);
    expect(LIKERT_SCALE.map((v) => DEFAULT_LIKERT_LABELS[v])).toEqual([
      'Strongly Disagree',
      'Disagree',
      'Neutral',
      'Agree',
      'Strongly Agree',
    ]);
  });
});
