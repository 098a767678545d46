// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { connectionIdentity, toApiConfig, useConnectionStore } from './connection-store';

const stored = () => localStorage.getItem('threadline:connection') ?? '';

describe('connection store', () => {
  beforeEach(() => {
    localStorage.clear();
    useConnectionStore.getState().reset();
  });

  it('keeps the key in memory only, unless "remember on this device" is ticked', () => {
    useConnectionStore.getState().update({ apiKey: 'super-secret', agentId: 'flight-changes' });
    expect(useConnectionStore.getState().apiKey).toBe('super-secret');
    expect(stored()).toContain('flight-changes');
    expect(stored()).not.toContain('super-secret');

    useConnectionStore.getState().update({ rememberKey: true });
    expect(stored()).toContain('super-secret');

    useConnectionStore.getState().update({ rememberKey: false });
    expect(stored()).not.toContain('super-secret');
  });

  it('hands the API client what it needs, and changes identity with the server or the key', () => {
    const s = useConnectionStore.getState();
    s.update({
      baseUrl: 'https://api.example',
      keyHeader: 'x-aui-api-key',
      apiKey: 'k',
      extraHeaders: [{ name: 'x-aui-organization-id', value: 'o' }],
    });
    const now = useConnectionStore.getState();
    expect(toApiConfig(now)).toMatchObject({
      baseUrl: 'https://api.example',
      keyHeader: 'x-aui-api-key',
      apiKey: 'k',
    });
    const id = connectionIdentity(now);
    now.update({ agentId: 'other' });
    expect(connectionIdentity(useConnectionStore.getState())).toBe(id);
    now.update({ apiKey: 'k2' });
    expect(connectionIdentity(useConnectionStore.getState())).not.toBe(id);
  });
});
