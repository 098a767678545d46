// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { getThemeChoice, setThemeChoice } from './theme-store';

describe('theme store', () => {
  it('applies, remembers and reports the choice through lib/theme', () => {
    setThemeChoice('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(getThemeChoice()).toBe('dark');
    expect(Object.values({ ...localStorage })).toContain('dark');
    setThemeChoice('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(document.documentElement.style.colorScheme).toBe('light');
    setThemeChoice('system');
    expect(getThemeChoice()).toBe('system');
    expect(localStorage.length).toBe(0);
  });
});
