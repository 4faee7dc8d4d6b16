import { describe, expect, it } from 'vitest';
import { pageRange, pageWindow } from './pagination';

describe('pageWindow', () => {
  it('shows every page when there are 5 or fewer', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('centres the current page', () => {
    expect(pageWindow(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(6, 10)).toEqual([4, 5, 6, 7, 8]);
  });

  it('sticks to the edges near the first and last pages', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(9, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
  });

  it('clamps a page outside the range and has no buttons without pages', () => {
    expect(pageWindow(42, 7)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(0, 7)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 0)).toEqual([]);
  });
});

describe('pageRange', () => {
  it('gives the first and last item of the page', () => {
    expect(pageRange(1, 10, 45)).toEqual({ from: 1, to: 10 });
    expect(pageRange(5, 10, 45)).toEqual({ from: 41, to: 45 });
    expect(pageRange(1, 10, 0)).toEqual({ from: 0, to: 0 });
  });
  it('gives the call log\'s "Showing x to y of z" range', () => {
    expect(pageRange(2, 20, 45)).toEqual({ from: 21, to: 40 });
    expect(pageRange(3, 20, 45)).toEqual({ from: 41, to: 45 });
  });
});
