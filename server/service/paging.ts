/** The trace list's page envelope arithmetic (pages numbered from 1). */
export const DEFAULT_PAGE_SIZE = 50;

export interface PageWindow {
  page: number;
  size: number;
  offset: number;
}

export function pageWindow(page: number | undefined, size: number | undefined): PageWindow {
  const p = page ?? 1;
  const s = size ?? DEFAULT_PAGE_SIZE;
  return { page: p, size: s, offset: (p - 1) * s };
}

export function pageCount(total: number, size: number): number {
  return Math.ceil(total / size);
}
