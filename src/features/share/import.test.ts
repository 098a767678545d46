// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { sampleDocument } from './share-document.fixture';
import { importFile } from './ImportDrop';
import { useShareStore } from './share-store';

const file = (name: string, text: string) => new File([text], name, { type: 'application/json' });

beforeEach(() => useShareStore.setState({ opened: null, importError: null }));

describe('importing a file', () => {
  it('opens an exported document read-only', async () => {
    await importFile(file('t.json', JSON.stringify(sampleDocument('export'), null, 2)));
    expect(useShareStore.getState().opened?.kind).toBe('export');
    expect(useShareStore.getState().opened?.threads[0]?.turns).toHaveLength(2);
    expect(useShareStore.getState().importError).toBeNull();
  });

  it('says why a file cannot be opened', async () => {
    await importFile(file('notes.txt', 'hello'));
    expect(useShareStore.getState().importError).toMatch(/notes\.txt is not JSON/);
    await importFile(file('bundle.json', '{"schema_version":1}'));
    expect(useShareStore.getState().importError).toMatch(/not a Threadline snapshot or export/);
    expect(useShareStore.getState().opened).toBeNull();
  });
});
