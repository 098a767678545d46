import { useId, type KeyboardEvent } from 'react';
import { cx } from '../../lib/format';

export interface TabItem {
  id: string;
  label: string;
}

/** An accessible tab strip (roving focus with arrow keys). The panel is rendered by the caller. */
export function TabList({
  tabs,
  value,
  onChange,
  label,
  idPrefix,
}: {
  tabs: readonly TabItem[];
  value: string;
  onChange: (id: string) => void;
  label: string;
  idPrefix?: string;
}) {
  const generated = useId();
  const prefix = idPrefix ?? generated;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = tabs.findIndex((t) => t.id === value);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    const tab = tabs[next];
    if (tab) {
      e.preventDefault();
      onChange(tab.id);
      document.getElementById(`${prefix}-tab-${tab.id}`)?.focus();
    }
  };
  return (
    <div
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className="flex gap-1 border-b border-zinc-200 px-2 dark:border-zinc-800"
    >
      {tabs.map((t) => (
        <button
          key={t.id}
          id={`${prefix}-tab-${t.id}`}
          role="tab"
          type="button"
          aria-selected={t.id === value}
          aria-controls={`${prefix}-panel`}
          tabIndex={t.id === value ? 0 : -1}
          onClick={() => onChange(t.id)}
          className={cx(
            '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
            t.id === value
              ? 'border-indigo-500 text-zinc-900 dark:text-zinc-50'
              : 'border-transparent text-zinc-500 hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200',
          )}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
