import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/**
 * A text field's or select's classes, with its height, width and text size (`size`). They are
 * given in one place because Tailwind applies conflicting utilities by its stylesheet's order,
 * not the class list's: an `h-7` added after a built-in `h-9` would lose.
 */
export const inputClass = (size = 'h-9 w-full text-sm') =>
  `${size} rounded-md border border-zinc-300 bg-white px-2 text-zinc-900 focus:outline-2 focus:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100`;

/** A labelled text input; the label is its accessible name. */
export function TextField({
  label,
  hint,
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-600 dark:text-zinc-300">
        {label}
      </label>
      <input id={id} className={inputClass()} aria-describedby={hint ? `${id}-hint` : undefined} {...rest} />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
