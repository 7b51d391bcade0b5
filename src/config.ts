/**
 * Settings from the environment, checked once at start. Every bad value is named in one error.
 *   PORT          port to listen on (default 3000; 0 picks a free port)
 *   HOST          address to listen on (default 0.0.0.0)
 *   DATABASE_URL  SQLite file path or sqlite: URL, or postgres:// URL (default ./data/vitrine.db; the folder is created)
 *   REDIS_URL     redis:// or rediss:// URL, optional: shared rate limits and site change notices across processes
 *   TRUST_PROXY   true when behind a reverse proxy that sets X-Forwarded-* (default false)
 */
import { parseDatabaseUrl } from './db/connect';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl?: string;
  trustProxy: boolean;
}

export const DEFAULT_DATABASE_URL = './data/vitrine.db';

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? `invalid setting: ${problems[0]}` : `invalid settings:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };

  let port = 3000;
  const rawPort = value('PORT');
  if (rawPort !== undefined) {
    port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
    if (!(port >= 0 && port <= 65535)) problems.push(`PORT must be a whole number from 0 to 65535, not '${rawPort}'`);
  }

  const host = value('HOST') ?? '0.0.0.0';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) problems.push(`HOST must be a host name or IP address, not '${host}'`);

  const databaseUrl = value('DATABASE_URL') ?? DEFAULT_DATABASE_URL;
  try {
    parseDatabaseUrl(databaseUrl);
  } catch (error) {
    problems.push(`DATABASE_URL: ${(error as Error).message}`);
  }

  const redisUrl = value('REDIS_URL');
  if (redisUrl !== undefined && !isUrl(redisUrl, ['redis:', 'rediss:'])) {
    problems.push(`REDIS_URL must be a redis:// or rediss:// URL, not '${redacted(redisUrl)}'`);
  }

  const rawTrust = value('TRUST_PROXY')?.toLowerCase();
  const trustProxy = rawTrust === 'true' || rawTrust === '1';
  if (rawTrust !== undefined && !['true', 'false', '1', '0'].includes(rawTrust)) {
    problems.push(`TRUST_PROXY must be true or false, not '${rawTrust}'`);
  }

  if (problems.length) throw new ConfigError(problems);
  return { port, host, databaseUrl, ...(redisUrl !== undefined ? { redisUrl } : {}), trustProxy };
}

function isUrl(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** A URL with its password hidden, for messages and logs. */
export function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
