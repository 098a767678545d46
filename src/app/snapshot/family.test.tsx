// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { parseShareDocument } from '../../features/share/document';
import { documentCompareSide, documentTraceLists, documentTree, documentTreeStatus } from './family';
import { familyDocument, sampleDocument } from '../../features/share/share-document.fixture';
import SnapshotView from './SnapshotView';

beforeAll(() => installDomStubs());
afterEach(cleanup);

describe('a document holding a thread and its branch', () => {
  it('gives the tree from its lineage and each thread’s decisions from its traces', () => {
    const doc = familyDocument();
    const tree = documentTree(doc, 'task-2');
    expect(tree?.task_id).toBe('task-1');
    expect(tree?.children.map((c) => c.task_id)).toEqual(['task-2']);
    expect(documentTreeStatus(tree!)).toBe('1 branch (as exported).');
    expect(documentTraceLists(doc).get('task-2')?.data).toEqual([
      { interaction_id: 'msg-b2', decision: 'proceed' },
    ]);
    expect(documentCompareSide(doc, 'task-2')?.turns.map((t) => t.interaction_id)).toEqual([
      'msg-b1',
      'msg-b2',
    ]);
    expect(documentCompareSide(doc, 'elsewhere')).toBeUndefined();
  });

  it('has no tree when it holds one thread', () => {
    expect(documentTree(sampleDocument('export'), 'task-1')).toBeNull();
  });

  it('opens with the branch tree and compares the thread with its branch, from the file alone', () => {
    // Through JSON and the reader, as an imported file is.
    const doc = parseShareDocument(JSON.parse(JSON.stringify(familyDocument())));
    render(<SnapshotView doc={doc} onClose={() => {}} renderInspector={() => <p>inspector</p>} />);
    const tree = screen.getByRole('tree', { name: 'Branch tree' });
    const rows = within(tree).getAllByRole('treeitem');
    expect(rows.map((r) => r.getAttribute('aria-level'))).toEqual(['1', '2']);
    expect(rows[1]?.textContent).toMatch('Disputes, 900');
    expect(rows[1]?.textContent).toMatch('text edited');
    expect(rows[0]?.getAttribute('aria-selected')).toBe('true');

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Compare with parent' }));
    const comparison = screen.getByRole('region', { name: 'Comparison' });
    expect(within(comparison).getByRole('button', { name: /^A Disputes/ })).toBeTruthy();
    expect(within(comparison).getByRole('button', { name: /^B Disputes, 900/ })).toBeTruthy();
    const row = within(comparison).getByRole('article', { name: 'Aligned turn 1' });
    expect(row?.textContent).toMatch('message edited');
    expect(row?.textContent).toMatch(/block_with_explanation|Blocked/i);
    expect(within(comparison).getByRole('region', { name: 'Bundles used' })?.textContent).toMatch(
      /B: turn 1 .*turn 2 .*#abcdef/,
    );

    // Opening B from the comparison shows its transcript, with the tree marking it open.
    fireEvent.click(within(comparison).getByRole('button', { name: /^B Disputes, 900/ }));
    expect(screen.queryByRole('region', { name: 'Comparison' })).toBeNull();
    expect(within(screen.getByRole('tree')).getAllByRole('treeitem')[1]?.getAttribute('aria-selected')).toBe(
      'true',
    );
  });
});
