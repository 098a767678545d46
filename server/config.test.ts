import { describe, expect, it } from 'vitest';
import { parseConfig, redactedDatabaseUrl } from './config';

describe('parseConfig', () => {
  it('uses the documented defaults', () => {
    const config = parseConfig([], {});
    expect(config).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      dataDir: './.threadline',
      distDir: 'dist',
      upstream: undefined,
      defaultKey: true,
      apiKeys: [{ key: 'dev-key', agents: '*' }],
    });
  });

  it('reads the environment', () => {
    const config = parseConfig([], {
      PORT: '9000',
      HOST: '0.0.0.0',
      THREADLINE_CORS_ORIGINS: 'http://localhost:5173, https://App.example.com/',
      THREADLINE_ALLOWED_HOSTS: 'threadline.lan,.team.example',
      THREADLINE_DATA: '/tmp/x',
      THREADLINE_DIST: 'build',
      THREADLINE_UPSTREAM: 'https://api.example.com/',
      THREADLINE_API_KEYS: 'a=*;b=card-disputes',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/tmp/x',
      distDir: 'build',
      upstream: { url: 'https://api.example.com', headers: {} },
      defaultKey: false,
      corsOrigins: ['http://localhost:5173', 'https://app.example.com'],
      allowedHosts: ['threadline.lan', '.team.example'],
    });
    expect(config.apiKeys).toHaveLength(2);
  });

  it("reads the worker pool's settings, the fair shares' among them", () => {
    const config = parseConfig([], {
      THREADLINE_WORKERS: '3',
      THREADLINE_WORK_QUEUE: '40',
      THREADLINE_WORK_QUEUE_PER_KEY: '5',
      THREADLINE_WORK_DEADLINE_MS: '20000',
      THREADLINE_WORK_WAIT_MS: '4000',
    });
    expect(config.work).toEqual({
      size: 3,
      queueLimit: 40,
      keyQueueLimit: 5,
      deadlineMs: 20_000,
      maxWaitMs: 4_000,
    });
    expect(() => parseConfig([], { THREADLINE_WORK_WAIT_MS: 'soon' })).toThrow(/THREADLINE_WORK_WAIT_MS/);
  });

  it('lets flags win over the environment, in both spellings', () => {
    const config = parseConfig(['--port', '9100', '--data=/tmp/d', '--upstream', 'http://127.0.0.1:9999'], {
      PORT: '9000',
    });
    expect(config).toMatchObject({
      port: 9100,
      dataDir: '/tmp/d',
      upstream: { url: 'http://127.0.0.1:9999' },
    });
  });

  it('rejects unknown flags, missing values, bad ports and bad upstreams', () => {
    expect(() => parseConfig(['--nope'], {})).toThrow(/Unknown argument/);
    expect(() => parseConfig(['--port'], {})).toThrow(/needs a value/);
    expect(() => parseConfig(['--port', 'abc'], {})).toThrow(/Invalid port/);
    expect(() => parseConfig(['--upstream', 'ftp://x'], {})).toThrow(/http/);
    expect(() => parseConfig([], { THREADLINE_MAX_BODY_BYTES: '-1' })).toThrow(/MAX_BODY/);
  });

  it('selects PostgreSQL by THREADLINE_DATABASE_URL and refuses anything but a postgres:// URL', () => {
    expect(parseConfig([], {}).databaseUrl).toBeUndefined();
    expect(
      parseConfig([], { THREADLINE_DATABASE_URL: 'postgres://u:p@db:5432/threadline' }).databaseUrl,
    ).toBe('postgres://u:p@db:5432/threadline');
    expect(parseConfig([], { THREADLINE_DATABASE_URL: 'postgresql://db/t' }).databaseUrl).toBe(
      'postgresql://db/t',
    );
    expect(() => parseConfig([], { THREADLINE_DATABASE_URL: 'mysql://db/t' })).toThrow(/postgres:\/\//);
    expect(() => parseConfig([], { THREADLINE_DATABASE_URL: 'not a url' })).toThrow(
      /THREADLINE_DATABASE_URL/,
    );
  });

  it('refuses to listen beyond this machine with the public development key, saying how to set keys', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'my-laptop.lan']) {
      expect(() => parseConfig(['--host', host], {}), host).toThrow(
        /Refusing to listen on .* with the public development key dev-key.*THREADLINE_API_KEYS=/,
      );
      expect(parseConfig(['--host', host], { THREADLINE_API_KEYS: 'k=*' }).host).toBe(host);
      expect(() => parseConfig(['--host', host], { THREADLINE_API_KEYS: 'k=*;dev-key=*' }), host).toThrow(
        /public development key dev-key/,
      );
    }
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2'])
      expect(parseConfig(['--host', host], {}).defaultKey, host).toBe(true);
  });

  it('rejects an origin that is not scheme://host[:port]', () => {
    expect(() => parseConfig([], { THREADLINE_CORS_ORIGINS: 'localhost:5173' })).toThrow(/Invalid origin/);
    expect(() => parseConfig([], { THREADLINE_CORS_ORIGINS: 'http://a.example/path' })).toThrow(
      /Invalid origin/,
    );
  });

  it('takes upstream credentials out of the URL and reads upstream headers and limits', () => {
    const config = parseConfig(['--upstream', 'https://me:p%40ss@api.example.com/base/'], {
      THREADLINE_UPSTREAM_HEADERS: 'X-Gateway-Key: g-123\nx-aui-organization-id:  org-1 ',
      THREADLINE_UPSTREAM_MAX_BYTES: '1048576',
      THREADLINE_UPSTREAM_TIMEOUT_MS: '5000',
    });
    expect(config.upstream).toEqual({
      url: 'https://api.example.com/base',
      headers: {
        authorization: `Basic ${btoa('me:p@ss')}`,
        'x-gateway-key': 'g-123',
        'x-aui-organization-id': 'org-1',
      },
      maxResponseBytes: 1048576,
      timeoutMs: 5000,
    });
    expect(() => parseConfig(['--upstream', 'http://me:s3cret%zz@x'], {})).toThrow(/not shown/);
    expect(() => parseConfig(['--upstream', 'ftp://me:s3cret@x'], {})).toThrow(/ftp:\/\/\*\*\*@x/);
    expect(() =>
      parseConfig(['--upstream', 'http://x'], { THREADLINE_UPSTREAM_HEADERS: 'no colon s3cret' }),
    ).toThrow(/must be "Name: value"/);
    try {
      parseConfig(['--upstream', 'http://x'], { THREADLINE_UPSTREAM_HEADERS: 'no colon s3cret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('collects agent folders from THREADLINE_AGENTS and every --agents', () => {
    const config = parseConfig(['--agents', 'one', '--agents=two'], { THREADLINE_AGENTS: 'env-a:env-b' });
    expect(config.agentDirs).toEqual(['env-a', 'env-b', 'one', 'two']);
    expect(parseConfig([], {}).agentDirs).toEqual([]);
  });
});

describe('redactedDatabaseUrl', () => {
  it('prints no password, in the user part or in the query', () => {
    const printed = redactedDatabaseUrl(
      'postgres://app:s3cret@db.example:5432/threadline?password=hunter2&sslpassword=k3y&sslmode=require',
    );
    expect(printed).not.toMatch(/s3cret|hunter2|k3y/);
    expect(printed).toContain('db.example:5432/threadline');
    expect(printed).toContain('sslmode=require');
    expect(redactedDatabaseUrl('not a url ?password=x')).not.toContain('x');
  });
});
