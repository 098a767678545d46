import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, pageCount, pageWindow } from './paging';

describe('paging', () => {
  it('defaults to the first page of the default size', () => {
    expect(pageWindow(undefined, undefined)).toEqual({ page: 1, size: DEFAULT_PAGE_SIZE, offset: 0 });
  });
  it('offsets later pages', () => {
    expect(pageWindow(3, 10)).toEqual({ page: 3, size: 10, offset: 20 });
  });
  it('counts partial pages and no page for nothing', () => {
    expect(pageCount(0, 10)).toBe(0);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });
});
