import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redacted } from './config';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toEqual({ port: 3000, host: '0.0.0.0', databaseUrl: './data/vitrine.db', trustProxy: false });
  });

  it('reads the settings', () => {
    expect(
      loadConfig({ PORT: '8080', HOST: '127.0.0.1', DATABASE_URL: 'postgres://u@db/shop', REDIS_URL: 'redis://cache:6379', TRUST_PROXY: 'true' }),
    ).toEqual({ port: 8080, host: '127.0.0.1', databaseUrl: 'postgres://u@db/shop', redisUrl: 'redis://cache:6379', trustProxy: true });
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' }).port).toBe(3000);
  });

  it('names every bad value', () => {
    const attempt = () => loadConfig({ PORT: '70000', HOST: 'a b', TRUST_PROXY: 'yes' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      "invalid settings:\n  PORT must be a whole number from 0 to 65535, not '70000'\n  HOST must be a host name or IP address, not 'a b'\n  TRUST_PROXY must be true or false, not 'yes'",
    );
    expect(() => loadConfig({ PORT: '-1' })).toThrow("invalid setting: PORT must be a whole number from 0 to 65535, not '-1'");
  });

  it('hides passwords in URLs it prints', () => {
    expect(redacted('postgres://u:secret@db/shop')).toBe('postgres://u:***@db/shop');
    expect(redacted('./data/vitrine.db')).toBe('./data/vitrine.db');
  });
});
