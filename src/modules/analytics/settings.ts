/** ANALYTICS_RETENTION_DAYS: how many days of raw analytics events are kept (1–3650, default 30); roll-ups stay. */
import { ConfigError } from '../../config';
import { DEFAULT_RETENTION_DAYS } from './rollup';

export const MAX_RETENTION_DAYS = 3650;

export function analyticsRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ANALYTICS_RETENTION_DAYS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_RETENTION_DAYS;
  const days = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(days >= 1 && days <= MAX_RETENTION_DAYS)) {
    throw new ConfigError([
      `ANALYTICS_RETENTION_DAYS must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, not '${raw.slice(0, 40)}'`,
    ]);
  }
  return days;
}
