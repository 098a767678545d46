// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PASSING_STATUS_MS, usePassingStatus } from './use-passing-status';

function Copier() {
  const [status, show] = usePassingStatus();
  return (
    <>
      <button type="button" onClick={() => show('Link copied')}>
        Copy link
      </button>
      <span role="status">{status}</span>
    </>
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('usePassingStatus', () => {
  it('clears the status after a few seconds', () => {
    vi.useFakeTimers();
    render(<Copier />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(screen.getByRole('status').textContent).toBe('Link copied');
    act(() => {
      vi.advanceTimersByTime(PASSING_STATUS_MS - 100);
    });
    expect(screen.getByRole('status').textContent).toBe('Link copied');
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('clears the status at the next key press or click', () => {
    render(<Copier />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(screen.getByRole('status').textContent).toBe('Link copied');
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(screen.getByRole('status').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(screen.getByRole('status').textContent).toBe('Link copied');
    fireEvent.pointerDown(document.body);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
