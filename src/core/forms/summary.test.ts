import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormDefinition } from './fields';
import { NO_ANSWER_TEXT, summarizeFormAnswer, summarizeFormAnswers, type FormFieldAnswer } from './summary';

const answer = (type: string, values?: FormFieldAnswer['values'], value?: string): FormFieldAnswer => ({
  type,
  rawTitle: 'Q',
  values,
  value,
});

describe('form answer summaries (§2, §3)', () => {
  it.each<[string, FormFieldAnswer, string[]]>([
    [
      'address',
      answer('address', ['1 Main St', 'Apt 2', 'Springfield', 'IL', '62701', 'United States']),
      ['1 Main St', 'Apt 2', 'Springfield, IL 62701', 'United States'],
    ],
    ['address partial', answer('address', ['', '', 'Paris', '', '75001', 'France']), ['Paris, 75001', 'France']],
    ['checkbox', answer('checkbox', ['Red', 'Green']), ['Red, Green']],
    ['date', answer('date', ['03', '14', '2024']), ['03/14/2024']],
    [
      'likert',
      answer('likert', { 'Fast?': '2', 'Friendly?': '-1', 'Odd?': 'custom', 'Blank?': '' }),
      ['Fast?: Strongly Agree', 'Friendly?: Disagree', 'Odd?: custom'],
    ],
    ['name', answer('name', ['Ada', 'Lovelace']), ['Ada Lovelace']],
    ['phone', answer('phone', ['+44', '20', '7946', '0958']), ['+44 20 7946 0958']],
    ['phone without country', answer('phone', ['555', '123', '4567']), ['555 123 4567']],
    ['time', answer('time', ['9', '5', '', 'AM']), ['9:05 AM']],
    ['time with seconds', answer('time', ['14', '30', '7', '']), ['14:30:07']],
    ['time minutes only', answer('time', ['', '30', '', 'PM']), ['0:30 PM']],
    ['text', answer('text', undefined, ' Hello '), ['Hello']],
    ['text from values', answer('select', ['One']), ['One']],
  ])('%s', (_, a, lines) => {
    expect(summarizeFormAnswer(a)).toEqual(lines);
  });

  it.each<[string, FormFieldAnswer]>([
    ['address', answer('address', ['', '', '', '', '', ''])],
    ['checkbox', answer('checkbox', [])],
    ['date', answer('date', null)],
    ['likert', answer('likert', ['2'])],
    ['name', answer('name', ['', ''])],
    ['phone', answer('phone', ['', '', '', ''])],
    ['time', answer('time', ['', '', '', 'AM'])],
    ['text', answer('text', undefined, '  ')],
  ])('missing %s shows N/A or the configured text', (_, a) => {
    expect(summarizeFormAnswer(a)).toEqual(['N/A']);
    expect(summarizeFormAnswer(a, 'No answer')).toEqual(['No answer']);
    expect(summarizeFormAnswer(a, ' ')).toEqual([NO_ANSWER_TEXT]);
  });
});

describe('summaries of bad stored data', () => {
  it('never throw', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('address', 'checkbox', 'date', 'likert', 'name', 'phone', 'time', 'text', 'other'),
        fc.anything(),
        fc.anything(),
        (type, values, value) => {
          const lines = summarizeFormAnswer({ type, rawTitle: 'Q', values, value } as unknown as FormFieldAnswer);
          expect(lines.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('summarizeFormAnswers', () => {
  const fields = [
    { id: 'text', kind: 'text', title: 'Engraving text', required: true },
    { id: 'who', kind: 'name', title: 'Recipient', required: false },
    { id: 'likes', kind: 'checkbox', title: 'Likes', required: false, options: ['Tea', 'Coffee'] },
    { id: 'survey', kind: 'likert', title: 'Survey', required: false, questions: ['Fast?'] },
    { id: 'source', kind: 'hidden', title: 'source', required: false, value: 'x' },
  ] as const satisfies FormDefinition['fields'];

  it("shows every visible field in the form's order, with the no-answer text for a missing answer", () => {
    expect(
      summarizeFormAnswers(
        { fields },
        { text: 'Sam', who: ['Ada', 'Lovelace'], survey: { 'Fast?': '2' }, source: 'y' },
        'None',
      ),
    ).toEqual([
      { title: 'Engraving text', lines: ['Sam'] },
      { title: 'Recipient', lines: ['Ada Lovelace'] },
      { title: 'Likes', lines: ['None'] },
      { title: 'Survey', lines: ['Fast?: Strongly Agree'] },
    ]);
  });

  it("reads anything that is not an answers object as no answers ('N/A' by default)", () => {
    expect(summarizeFormAnswers({ fields }, ['x'])[0]).toEqual({ title: 'Engraving text', lines: ['N/A'] });
    expect(summarizeFormAnswers({ fields }, { likes: ['Tea', 'Coffee'] })[2]).toEqual({
      title: 'Likes',
      lines: ['Tea, Coffee'],
    });
  });
});
