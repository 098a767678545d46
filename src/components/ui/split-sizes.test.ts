import { describe, expect, it } from 'vitest';
import { resizePair, restoreSizes } from './split-sizes';

describe('split sizes', () => {
  it('moves a boundary within both minimums and keeps the total', () => {
    expect(resizePair([20, 40, 40], [10, 25, 20], 0, 5)).toEqual([25, 35, 40]);
    expect(resizePair([20, 40, 40], [10, 25, 20], 0, 30)).toEqual([35, 25, 40]);
    expect(resizePair([20, 40, 40], [10, 25, 20], 0, -30)).toEqual([10, 50, 40]);
    expect(resizePair([20, 40, 40], [10, 25, 20], 1, 10)).toEqual([20, 50, 30]);
    expect(resizePair([50, 50], [10, 10], 5, 10)).toEqual([50, 50]);
  });
  it('restores only sizes that fit', () => {
    expect(restoreSizes([30, 30, 40], [20, 40, 40], [10, 10, 10])).toEqual([30, 30, 40]);
    expect(restoreSizes([5, 55, 40], [20, 40, 40], [10, 10, 10])).toEqual([20, 40, 40]);
    expect(restoreSizes([30, 30], [20, 40, 40], [10, 10, 10])).toEqual([20, 40, 40]);
    expect(restoreSizes('junk', [50, 50], [0, 0])).toEqual([50, 50]);
  });
});
