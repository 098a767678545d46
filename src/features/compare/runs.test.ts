import { describe, expect, it } from 'vitest';
import { runSegments } from './runs';

describe('runSegments', () => {
  it('groups consecutive turns that ran with the same bundle and version, and keeps every change', () => {
    expect(
      runSegments([
        { index: 0, bundleHash: 'abc', versionId: 'v2' },
        { index: 1, bundleHash: null, versionId: 'v2' },
        { index: 2, bundleHash: null, versionId: 'v2' },
        { index: 3, bundleHash: 'def', versionId: 'v1' },
        { index: 4 },
      ]),
    ).toEqual([
      { first: 0, last: 0, bundleHash: 'abc', versionId: 'v2' },
      { first: 1, last: 2, bundleHash: null, versionId: 'v2' },
      { first: 3, last: 3, bundleHash: 'def', versionId: 'v1' },
      { first: 4, last: 4, bundleHash: undefined, versionId: undefined },
    ]);
  });

  it('a side with no turns has no segments', () => {
    expect(runSegments([])).toEqual([]);
  });
});
