import { describe, expect, it } from 'vitest';
import { parseConfig } from './config';

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
      upstream: 'https://api.example.com',
      defaultKey: false,
    });
    expect(config.apiKeys).toHaveLength(2);
  });

  it('lets flags win over the environment, in both spellings', () => {
    const config = parseConfig(['--port', '9100', '--data=/tmp/d', '--upstream', 'http://127.0.0.1:9999'], {
      PORT: '9000',
    });
    expect(config).toMatchObject({ port: 9100, dataDir: '/tmp/d', upstream: 'http://127.0.0.1:9999' });
  });

  it('rejects unknown flags, missing values, bad ports and bad upstreams', () => {
    expect(() => parseConfig(['--nope'], {})).toThrow(/Unknown argument/);
    expect(() => parseConfig(['--port'], {})).toThrow(/needs a value/);
    expect(() => parseConfig(['--port', 'abc'], {})).toThrow(/Invalid port/);
    expect(() => parseConfig(['--upstream', 'ftp://x'], {})).toThrow(/http/);
    expect(() => parseConfig([], { THREADLINE_MAX_BODY_BYTES: '-1' })).toThrow(/MAX_BODY/);
  });
});
