import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redacted } from './config';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: './data/vitrine.db',
      trustProxy: false,
      shutdownTimeoutMs: 10_000,
      mailFrom: 'Vitrine <no-reply@localhost>',
    });
  });

  it('reads the settings', () => {
    expect(
      loadConfig({
        PORT: '8080',
        HOST: '127.0.0.1',
        DATABASE_URL: 'postgres://u@db/shop',
        REDIS_URL: 'redis://cache:6379',
        TRUST_PROXY: 'true',
        SHUTDOWN_TIMEOUT_MS: '30000',
      }),
    ).toEqual({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db/shop',
      redisUrl: 'redis://cache:6379',
      trustProxy: true,
      shutdownTimeoutMs: 30_000,
      mailFrom: 'Vitrine <no-reply@localhost>',
    });
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' }).port).toBe(3000);
  });

  it('names every bad value', () => {
    const attempt = () => loadConfig({ PORT: '70000', HOST: 'a b', TRUST_PROXY: 'yes' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      "invalid settings:\n  PORT must be a whole number from 0 to 65535, not '70000'\n  HOST must be a host name or IP address, not 'a b'\n  TRUST_PROXY must be false, true (every hop), a number of proxy hops (1) or a comma-separated list of proxy addresses and CIDR ranges (10.0.0.0/8,127.0.0.1), not 'yes'",
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '10s' })).toThrow(
      "invalid setting: SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 0 to 600000, not '10s'",
    );
    expect(() => loadConfig({ PORT: '-1' })).toThrow(
      "invalid setting: PORT must be a whole number from 0 to 65535, not '-1'",
    );
  });

  it('hides passwords in URLs it prints', () => {
    expect(redacted('postgres://u:secret@db/shop')).toBe('postgres://u:***@db/shop');
    expect(redacted('./data/vitrine.db')).toBe('./data/vitrine.db');
  });
});

describe('loadConfig: e-mail', () => {
  it('reads PUBLIC_URL as an origin, and refuses one with a path or another scheme', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://Shop.Example.com/' })).toMatchObject({
      publicUrl: 'https://shop.example.com',
    });
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' })).toMatchObject({ publicUrl: 'http://localhost:3000' });
    expect(loadConfig({})).not.toHaveProperty('publicUrl');
    for (const bad of [
      'shop.example.com',
      'https://shop.example.com/shop',
      'ftp://shop.example.com',
      'https://shop.example.com/?a=1',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL must be an http:\/\/ or https:\/\/ URL/);
    }
  });

  it('reads SMTP_URL and MAIL_FROM', () => {
    expect(
      loadConfig({ SMTP_URL: 'smtps://shop%40x.com:secret@mail.x.com:465', MAIL_FROM: '"Shop, Inc." <shop@x.com>' }),
    ).toMatchObject({
      smtpUrl: 'smtps://shop%40x.com:secret@mail.x.com:465',
      mailFrom: '"Shop, Inc." <shop@x.com>',
    });
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'shop@x.com' })).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:2525',
      mailFrom: 'shop@x.com',
    });
    expect(loadConfig({ SMTP_URL: ' ' })).not.toHaveProperty('smtpUrl');
  });

  it('refuses a bad SMTP_URL without printing its password', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://me:secret@mail.x.com:99999' })).toThrow(
      "invalid setting: SMTP_URL must be an smtp:// or smtps:// URL with a host (smtp://user:password@mail.example.com:587), not 'smtp://me:***@mail.x.com:99999'",
    );
    expect(() => loadConfig({ SMTP_URL: 'https://me:secret@mail.x.com' })).toThrow("not 'https://me:***@mail.x.com/'");
    expect(() => loadConfig({ SMTP_URL: 'smtp://' })).toThrow(ConfigError);
  });

  it('refuses a MAIL_FROM that is not one address on one line', () => {
    for (const bad of [
      'shop',
      'a@x.com, b@x.com',
      'Shop <shop@x.com',
      'Shop\r\nBcc: x@y.com <shop@x.com>',
      'two words@x.com',
    ]) {
      expect(() => loadConfig({ MAIL_FROM: bad })).toThrow(
        'MAIL_FROM must be an e-mail address, as shop@example.com or Shop <shop@example.com>',
      );
    }
    expect(() => loadConfig({ MAIL_FROM: 'Shop\nBcc: x@y.com <shop@x.com>' })).toThrow(
      "not 'Shop?Bcc: x@y.com <shop@x.com>'",
    );
  });

  it('hides a password in a value the URL parser refuses', () => {
    expect(redacted('smtp://me:secret@mail.x.com:99999')).toBe('smtp://me:***@mail.x.com:99999');
  });
});
