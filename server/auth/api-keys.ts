/**
 * API keys: parsing `THREADLINE_API_KEYS` (`key1=*;key2=card-disputes,flight-changes`) and
 * looking a presented key up in constant time with respect to the stored keys' contents.
 */
import { hash, timingSafeEqual } from 'node:crypto';

export const DEFAULT_DEV_KEY = 'dev-key';

export interface ApiKey {
  key: string;
  /** `'*'` for every agent, else the agent ids this key may use. */
  agents: '*' | readonly string[];
}

class ApiKeyFormatError extends Error {}

/** Parses the key list; an unset or blank value gives one `dev-key` for every agent. */
export function parseApiKeys(spec: string | undefined): ApiKey[] {
  if (!spec || !spec.trim()) return [{ key: DEFAULT_DEV_KEY, agents: '*' }];
  return spec
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=');
      const key = (eq === -1 ? entry : entry.slice(0, eq)).trim();
      const scope = eq === -1 ? '*' : entry.slice(eq + 1).trim();
      if (!key)
        throw new ApiKeyFormatError(`THREADLINE_API_KEYS: an entry has no key ("${entry.slice(eq)}")`);
      if (scope === '*' || scope === '') return { key, agents: '*' as const };
      const agents = scope
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      return { key, agents };
    });
}

/** SHA-256 in one call (no Hash object per request); strings are hashed as UTF-8. */
const digest = (value: string) => hash('sha256', value, 'buffer');

/**
 * Finds the key matching `presented`. Both sides are hashed to a fixed length and every stored
 * key is compared with `timingSafeEqual`, so the time taken does not reveal how much matched.
 */
export function createKeyRing(keys: readonly ApiKey[]) {
  const hashed = keys.map((k) => ({ key: k, hash: digest(k.key) }));
  return {
    find(presented: string | undefined): ApiKey | undefined {
      if (!presented) return undefined;
      const probe = digest(presented);
      let found: ApiKey | undefined;
      for (const entry of hashed) if (timingSafeEqual(entry.hash, probe) && !found) found = entry.key;
      return found;
    },
  };
}
export type KeyRing = ReturnType<typeof createKeyRing>;

export function keyAllowsAgent(key: ApiKey, agentId: string): boolean {
  return key.agents === '*' || key.agents.includes(agentId);
}
