// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installDialogStubs } from '../../lib/dom-stubs.fixture';
import { Modal } from './Modal';
import { afterDialogsClose, anyDialogOpen } from './open-dialogs';

beforeAll(() => installDialogStubs());
afterEach(cleanup);

function Page({ autoFocusSecond = false }: { autoFocusSecond?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">Behind</button>
      <Modal open={open} onClose={() => setOpen(false)} label="Settings">
        <input aria-label="Name" />
        <input aria-label="Hidden one" tabIndex={-1} />
        <button type="button" autoFocus={autoFocusSecond}>
          Apply
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
      </Modal>
    </>
  );
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return screen.getByRole('dialog', { name: 'Settings' });
}

describe('Modal', () => {
  it('moves focus into the dialog on open: the first tab stop, or the autoFocus element', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await openDialog(user);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
    cleanup();
    render(<Page autoFocusSecond />);
    await openDialog(user);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Apply' }));
  });

  it('keeps Tab and Shift+Tab inside, from the last stop to the first and back', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await openDialog(user);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Apply' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });

  it('closes on Escape and gives focus back to the button that opened it', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await openDialog(user);
    expect(anyDialogOpen()).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' }));
    expect(anyDialogOpen()).toBe(false);
  });

  it('gives focus back when closed from inside, and runs what waited for it after that', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await openDialog(user);
    const ran: (Element | null)[] = [];
    afterDialogsClose(() => ran.push(document.activeElement));
    expect(ran).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' }));
    expect(ran).toEqual([screen.getByRole('button', { name: 'Open' })]);
  });
});
