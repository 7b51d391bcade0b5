import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config';
import { analyticsRetentionDays } from './settings';

describe('ANALYTICS_RETENTION_DAYS', () => {
  it('defaults to 30 days and takes 1 to 3650', () => {
    expect(analyticsRetentionDays({})).toBe(30);
    expect(analyticsRetentionDays({ ANALYTICS_RETENTION_DAYS: ' 7 ' })).toBe(7);
    expect(analyticsRetentionDays({ ANALYTICS_RETENTION_DAYS: '3650' })).toBe(3650);
  });

  it('refuses anything else with a message naming the setting', () => {
    for (const bad of ['0', '3651', '1.5', 'forever', '-3']) {
      expect(() => analyticsRetentionDays({ ANALYTICS_RETENTION_DAYS: bad })).toThrow(ConfigError);
    }
    expect(() => analyticsRetentionDays({ ANALYTICS_RETENTION_DAYS: 'x' })).toThrow(
      /ANALYTICS_RETENTION_DAYS must be a whole number of days from 1 to 3650/,
    );
  });
});
