import { describe, expect, it } from 'vitest';
import {
  buildBranchTree,
  flattenTree,
  indexRecords,
  pathTo,
  recordFromLink,
  recordsFromServer,
  rootOf,
  textChanged,
  type BranchNode,
  type LineageRecord,
} from './lineage';

let clock = 0;
function rec(task_id: string, parent_task_id: string, extra: Partial<LineageRecord> = {}): LineageRecord {
  clock += 1;
  return {
    task_id,
    parent_task_id,
    parent_interaction_id: `${parent_task_id}-m1`,
    edited_text: 'dispute the charge',
    original_text: 'dispute the charge',
    bundle_hash: null,
    version_id: null,
    version_tag: null,
    created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, clock)).toISOString(),
    ...extra,
  };
}

/** Compact picture of a tree: "root(a(c),b)". */
function shape(n: BranchNode): string {
  return n.children.length ? `${n.task_id}(${n.children.map(shape).join(',')})` : n.task_id;
}

describe('buildBranchTree', () => {
  it('is a single node for a thread with no branches', () => {
    const tree = buildBranchTree('t0', []);
    expect(tree).toEqual({ task_id: 't0', record: null, depth: 0, children: [] });
  });

  it('builds branches and branches of branches, children in creation order', () => {
    const records = [rec('a', 't0'), rec('b', 't0'), rec('c', 'a'), rec('d', 'c'), rec('e', 'a')];
    const tree = buildBranchTree('t0', records);
    expect(shape(tree)).toBe('t0(a(c(d),e),b)');
    expect(flattenTree(tree).map((n) => [n.task_id, n.depth])).toEqual([
      ['t0', 0],
      ['a', 1],
      ['c', 2],
      ['d', 3],
      ['e', 2],
      ['b', 1],
    ]);
  });

  it('gives the same whole-family tree from any member', () => {
    const records = [rec('a', 't0'), rec('c', 'a'), rec('b', 't0')];
    expect(shape(buildBranchTree('c', records))).toBe('t0(a(c),b)');
    expect(shape(buildBranchTree('b', records))).toBe('t0(a(c),b)');
  });

  it('orders children by created_at regardless of input order', () => {
    const late = rec('late', 't0');
    const early = rec('early', 't0', { created_at: '2000-01-01T00:00:00.000Z' });
    expect(shape(buildBranchTree('t0', [late, early]))).toBe('t0(early,late)');
  });

  it('roots a family at a parent that has no record of its own (the original or a lost thread)', () => {
    const records = [rec('b1', 'gone'), rec('b2', 'b1')];
    const tree = buildBranchTree('b2', records);
    expect(tree.task_id).toBe('gone');
    expect(tree.record).toBeNull();
    expect(shape(tree)).toBe('gone(b1(b2))');
  });

  it('leaves other families out', () => {
    const records = [rec('a', 't0'), rec('x', 'other')];
    expect(shape(buildBranchTree('t0', records))).toBe('t0(a)');
  });

  it('survives a cycle: every member once, the same root from every member', () => {
    const records = [rec('q', 'p'), rec('r', 'q'), rec('p', 'r'), rec('s', 'q')];
    const fromP = buildBranchTree('p', records);
    const fromS = buildBranchTree('s', records);
    expect(fromP.task_id).toBe('p');
    expect(fromS.task_id).toBe('p');
    const ids = flattenTree(fromP).map((n) => n.task_id);
    expect(ids.sort()).toEqual(['p', 'q', 'r', 's']);
    expect(shape(fromP)).toBe('p(q(r,s))');
    // The root keeps its record as data; its parent link is what is cut.
    expect(fromP.record?.parent_task_id).toBe('r');
  });

  it('ignores a record that names itself as its parent', () => {
    const tree = buildBranchTree('self', [rec('self', 'self'), rec('kid', 'self')]);
    expect(shape(tree)).toBe('self(kid)');
  });

  it('keeps the earliest of duplicate records for one task', () => {
    const first = rec('dup', 't0', { edited_text: 'first' });
    const second = rec('dup', 'elsewhere', { edited_text: 'second' });
    expect(indexRecords([second, first]).get('dup')?.edited_text).toBe('first');
    expect(shape(buildBranchTree('t0', [second, first]))).toBe('t0(dup)');
  });
});

describe('rootOf and pathTo', () => {
  it('follows parents up and reports the path down', () => {
    const records = [rec('a', 't0'), rec('c', 'a')];
    expect(rootOf('c', records)).toBe('t0');
    expect(rootOf('t0', records)).toBe('t0');
    const tree = buildBranchTree('c', records);
    expect(pathTo(tree, 'c')).toEqual(['t0', 'a', 'c']);
    expect(pathTo(tree, 'nope')).toEqual([]);
  });
});

describe('helpers', () => {
  it('tells an edited text from a bundle-only rerun', () => {
    expect(textChanged(rec('a', 't0'))).toBe(false);
    expect(textChanged(rec('a', 't0', { edited_text: 'other' }))).toBe(true);
  });
});

describe('recordsFromServer', () => {
  const fork = (task_id: string, interaction_id: string, text = 'same', replaced_text = 'same') => ({
    task_id,
    interaction_id,
    text,
    replaced_text,
  });

  it('names a branch’s version only where it differs from its parent’s, and keeps texts and bundles', () => {
    const records = recordsFromServer('v2', [
      {
        task_id: 'b1',
        parent: fork('root', 'i1', 'edited', 'original'),
        version_id: 'v2',
        version_tag: 'v2',
        bundle_hash: 'abc',
        created_at: '2026-01-01T00:00:01Z',
      },
      {
        task_id: 'b2',
        parent: fork('b1', 'i2'),
        version_id: 'v1',
        version_tag: 'v1',
        bundle_hash: null,
        created_at: '2026-01-01T00:00:02Z',
      },
      {
        task_id: 'b3',
        parent: fork('b2', 'i3'),
        version_id: 'v1',
        version_tag: 'v1',
        bundle_hash: null,
        created_at: '2026-01-01T00:00:03Z',
      },
    ]);
    expect(records.map((r) => [r.task_id, r.parent_task_id, r.version_id, r.bundle_hash])).toEqual([
      ['b1', 'root', null, 'abc'],
      ['b2', 'b1', 'v1', null],
      ['b3', 'b2', null, null],
    ]);
    expect(textChanged(records[0]!)).toBe(true);
    expect(textChanged(records[1]!)).toBe(false);
    const tree = buildBranchTree('b3', records);
    expect(tree.task_id).toBe('root');
    expect(flattenTree(tree).map((n) => n.depth)).toEqual([0, 1, 2, 3]);
  });

  it('a link’s lineage is ids only and says so', () => {
    const r = recordFromLink('b1', { task_id: 'root', interaction_id: 'i1' });
    expect(r).toMatchObject({
      task_id: 'b1',
      parent_task_id: 'root',
      parent_interaction_id: 'i1',
      from_link: true,
    });
    expect(buildBranchTree('b1', [r]).children.map((c) => c.task_id)).toEqual(['b1']);
  });
});
