/**
 * The one modal dialog of the app: a native <dialog> shown with showModal (top layer, inert
 * page) whose open state is React's: the effect only mirrors it onto the DOM element. On open,
 * focus goes inside (the `autoFocus` element, else the first tab stop); Tab and Shift+Tab cycle
 * inside; Escape and a click on the backdrop close; on close, focus returns to the opener.
 * Every dialog of the app is one of these (the trap and the keyboard rules live here only).
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { cx } from '../../lib/format';
import { tabbableIn, wrapFocus } from './focus-trap';
import { dialogOpened } from './open-dialogs';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** The dialog's accessible name. */
  label: string;
  className?: string;
  children: ReactNode;
}

export function Modal({ open, onClose, label, className, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const closed = dialogOpened();
    if (!d.open) d.showModal();
    if (!d.contains(document.activeElement)) {
      const first = d.querySelector<HTMLElement>('[autofocus]') ?? tabbableIn(d)[0];
      (first ?? d).focus();
    }
    return () => {
      if (d.open) d.close();
      // Back to the opener, unless something outside the dialog has taken the focus already.
      const now = document.activeElement;
      if (opener?.isConnected && (!now || now === document.body || d.contains(now))) opener.focus();
      closed();
    };
  }, [open]);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.defaultPrevented) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    } else if (e.key === 'Tab') {
      const to = wrapFocus(tabbableIn(e.currentTarget), document.activeElement, e.shiftKey);
      if (to) {
        e.preventDefault();
        to.focus();
      }
    }
  };

  // At the end of the body, so a dialog opened from deep inside a list inherits nothing from it.
  return createPortal(
    <dialog
      ref={ref}
      aria-label={label}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        // Another close request (not Escape, which is handled above): React's state closes it.
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      className={cx(
        'm-auto rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl outline-none backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100',
        className,
      )}
    >
      {open ? children : null}
    </dialog>,
    document.body,
  );
}
