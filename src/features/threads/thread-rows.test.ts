import { describe, expect, it } from 'vitest';
import type { TaskSummaryIn } from '../../api/task-list';
import { listRows, stepRow } from './thread-rows';

const team = (id: string) => ({ task_id: id }) as TaskSummaryIn;

describe('stepRow', () => {
  const rows = listRows(['a', 'b'], [team('x'), team('y')]); // a, b, heading, x, y

  it('moves one thread down or up, over the heading', () => {
    expect(stepRow(rows, 0, 'ArrowDown')).toBe(1);
    expect(stepRow(rows, 1, 'ArrowDown')).toBe(3);
    expect(stepRow(rows, 3, 'ArrowUp')).toBe(1);
    expect(stepRow(rows, 1, 'ArrowUp')).toBe(0);
  });

  it('stops at the ends, and Home / End go to the first and last thread', () => {
    expect(stepRow(rows, 0, 'ArrowUp')).toBeUndefined();
    expect(stepRow(rows, 4, 'ArrowDown')).toBeUndefined();
    expect(stepRow(rows, 3, 'Home')).toBe(0);
    expect(stepRow(rows, 0, 'End')).toBe(4);
  });

  it('reads the rows it steps over only, whatever the length of the list', () => {
    let reads = 0;
    const ids = Array.from({ length: 100_000 }, (_, i) => `t${i}`);
    const base = listRows(ids, []);
    const counted = { count: base.count, at: (i: number) => ((reads += 1), base.at(i)) };
    expect(stepRow(counted, 50_000, 'ArrowDown')).toBe(50_001);
    expect(stepRow(counted, 0, 'End')).toBe(99_999);
    expect(reads).toBe(2);
  });
});
