/** What each turn of a side ran with, grouped into runs of consecutive turns. Pure. */

export interface RunTurn {
  index: number;
  /** null = the agent's own bundle; undefined = not recorded. */
  bundleHash?: string | null | undefined;
  versionId?: string | undefined;
}

export interface RunSegment {
  first: number;
  last: number;
  bundleHash: string | null | undefined;
  versionId: string | undefined;
}

export function runSegments(turns: readonly RunTurn[]): RunSegment[] {
  const out: RunSegment[] = [];
  for (const t of turns) {
    const prev = out.at(-1);
    if (
      prev &&
      prev.bundleHash === t.bundleHash &&
      prev.versionId === t.versionId &&
      prev.last === t.index - 1
    ) {
      prev.last = t.index;
    } else {
      out.push({ first: t.index, last: t.index, bundleHash: t.bundleHash, versionId: t.versionId });
    }
  }
  return out;
}
