/** The inspector of a read-only copy: the tabs that need no service, the active one kept here. */
import { useState } from 'react';
import type { SnapshotInspectorContext } from './snapshot/SnapshotView';
import { Inspector } from './Inspector';
import { readOnlyTabs } from './read-only-tabs';

function SnapshotInspector(ctx: SnapshotInspectorContext) {
  const [tab, setTab] = useState<string | undefined>(undefined);
  return <Inspector tab={tab} onTab={setTab} ctx={ctx} tabs={readOnlyTabs} />;
}

export const renderSnapshotInspector = (ctx: SnapshotInspectorContext) => <SnapshotInspector {...ctx} />;
