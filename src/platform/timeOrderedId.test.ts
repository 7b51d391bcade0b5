import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './timeOrderedId';

describe('timeOrderedId', () => {
  it('sorts as made, within one millisecond and across them', () => {
    const made = [
      timeOrderedId(1_700_000_000_000),
      timeOrderedId(1_700_000_000_000),
      timeOrderedId(1_700_000_000_000),
      timeOrderedId(1_700_000_000_001),
      timeOrderedId(1_800_000_000_000),
    ];
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });
});
