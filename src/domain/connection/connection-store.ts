/**
 * Connection settings: a global store, because every route and every request reads them.
 * Persisted in localStorage, except the API key, which stays in memory unless the user ticks
 * "remember on this device". The key is never put in a URL, an export or a share link: the only
 * reader that sends it is the API client (through `toApiConfig`).
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { DEFAULT_TIMEOUT_MS, type ApiConfig, type ExtraHeader } from '../../api/client';

export interface ConnectionSettings {
  /** '' = the origin that served the page. */
  baseUrl: string;
  keyHeader: string;
  apiKey: string;
  rememberKey: boolean;
  extraHeaders: ExtraHeader[];
  agentId: string;
  userId: string;
  origin: string;
  versionId: string;
  versionTag: string;
}

const DEFAULT_CONNECTION: ConnectionSettings = {
  baseUrl: '',
  keyHeader: 'x-service-api-key',
  apiKey: '',
  rememberKey: false,
  extraHeaders: [],
  agentId: 'card-disputes',
  userId: 'playground-user',
  origin: 'web-widget',
  versionId: '',
  versionTag: '',
};

interface ConnectionState extends ConnectionSettings {
  update: (patch: Partial<ConnectionSettings>) => void;
  reset: () => void;
}

export const useConnectionStore = create<ConnectionState>()(
  persist(
    (setState) => ({
      ...DEFAULT_CONNECTION,
      update: (patch) => setState(patch),
      reset: () => setState({ ...DEFAULT_CONNECTION }),
    }),
    {
      name: 'threadline:connection',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s): Partial<ConnectionSettings> => {
        const { apiKey, update: _u, reset: _r, ...rest } = s;
        return s.rememberKey ? { ...rest, apiKey } : rest;
      },
    },
  ),
);

export function toApiConfig(s: ConnectionSettings): ApiConfig {
  return {
    baseUrl: s.baseUrl,
    keyHeader: s.keyHeader,
    apiKey: s.apiKey,
    extraHeaders: s.extraHeaders,
    timeoutMs: DEFAULT_TIMEOUT_MS,
  };
}

/** What identifies the server and the identity used with it: cached data belongs to it. */
export function connectionIdentity(s: ConnectionSettings): string {
  return JSON.stringify([s.baseUrl.trim(), s.keyHeader, s.apiKey, s.extraHeaders]);
}

export const selectAgentId = (s: ConnectionState) => s.agentId;
export const selectHasKey = (s: ConnectionState) => s.apiKey.length > 0;
