/** Service configuration from command-line flags and the environment (flags win). Pure. */
import { parseApiKeys, type ApiKey } from './auth/api-keys';

export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  distDir: string;
  upstream: string | undefined;
  apiKeys: ApiKey[];
  /** True when no keys were configured and the default `dev-key` is in use. */
  defaultKey: boolean;
  bodyLimitBytes: number | undefined;
}

export class ConfigError extends Error {}

const FLAGS = ['port', 'host', 'data', 'upstream', 'dist'] as const;
type Flag = (typeof FLAGS)[number];

function parseFlags(argv: readonly string[]): Partial<Record<Flag, string>> {
  const flags: Partial<Record<Flag, string>> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    const name = match?.[1] as Flag | undefined;
    if (!match || !name || !FLAGS.includes(name)) {
      throw new ConfigError(`Unknown argument: ${arg} (known: ${FLAGS.map((f) => `--${f}`).join(', ')})`);
    }
    const value = match[2] ?? argv[(i += 1)];
    if (value === undefined || value === '') throw new ConfigError(`--${name} needs a value`);
    flags[name] = value;
  }
  return flags;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`Invalid port: ${value}`);
  return port;
}

function parseUpstream(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`Invalid upstream URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`The upstream must be http(s): ${value}`);
  return value.replace(/\/+$/, '');
}

export function parseConfig(argv: readonly string[], env: Record<string, string | undefined>): ServiceConfig {
  const flags = parseFlags(argv);
  const limit = env.THREADLINE_MAX_BODY_BYTES;
  if (limit !== undefined && !(Number.isInteger(Number(limit)) && Number(limit) > 0)) {
    throw new ConfigError(`Invalid THREADLINE_MAX_BODY_BYTES: ${limit}`);
  }
  return {
    port: parsePort(flags.port ?? env.PORT ?? '8787'),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    dataDir: flags.data ?? env.THREADLINE_DATA ?? './.threadline',
    distDir: flags.dist ?? env.THREADLINE_DIST ?? 'dist',
    upstream: parseUpstream(flags.upstream ?? env.THREADLINE_UPSTREAM),
    apiKeys: parseApiKeys(env.THREADLINE_API_KEYS),
    defaultKey: !env.THREADLINE_API_KEYS?.trim(),
    bodyLimitBytes: limit === undefined ? undefined : Number(limit),
  };
}
