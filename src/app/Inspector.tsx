/** The inspector pane: tabs from the registry in extensions.tsx, the active one from the URL. */
import { Suspense } from 'react';
import { Spinner } from '../components/ui/Spinner';
import { TabList } from '../components/ui/Tabs';
import { inspectorTabs, type InspectorContext } from './extensions';

export function Inspector({ tab, onTab, ctx }: { tab: string | undefined; onTab: (id: string) => void; ctx: InspectorContext }) {
  const active = inspectorTabs.find((t) => t.id === tab) ?? inspectorTabs[0];
  if (!active) return null;
  const { Panel } = active;
  return (
    <section aria-label="Inspector" className="flex h-full min-h-0 flex-col">
      <TabList tabs={inspectorTabs} value={active.id} onChange={onTab} label="Inspector views" idPrefix="inspector" />
      <div id="inspector-panel" role="tabpanel" aria-labelledby={`inspector-tab-${active.id}`} className="min-h-0 flex-1">
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
