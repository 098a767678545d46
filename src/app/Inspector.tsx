/** The inspector pane: the tabs it is given (the workspace: the registry in extensions.tsx), the active one from the caller. */
import { Suspense } from 'react';
import { Spinner } from '../components/ui/Spinner';
import { TabList } from '../components/ui/Tabs';
import type { InspectorContext, InspectorTab } from './extensions';

export function Inspector({
  tab,
  onTab,
  ctx,
  tabs,
}: {
  tab: string | undefined;
  onTab: (id: string) => void;
  ctx: InspectorContext;
  tabs: InspectorTab[];
}) {
  const active = tabs.find((t) => t.id === tab) ?? tabs[0];
  if (!active) return null;
  const { Panel } = active;
  return (
    <section aria-label="Inspector" className="flex h-full min-h-0 flex-col">
      <TabList tabs={tabs} value={active.id} onChange={onTab} label="Inspector views" idPrefix="inspector" />
      <div
        id="inspector-panel"
        role="tabpanel"
        aria-labelledby={`inspector-tab-${active.id}`}
        className="min-h-0 flex-1"
      >
        <Suspense
          fallback={
            <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
              <Spinner label={`Loading the ${active.label} view`} /> Loading…
            </div>
          }
        >
          <Panel {...ctx} />
        </Suspense>
      </div>
    </section>
  );
}
