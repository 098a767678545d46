/**
 * The draft of an agent created on the reference service is kept there too: the editor's draft is
 * sent a moment after each edit, and a browser without a draft of its own starts from the
 * service's (edited elsewhere, or before this browser's storage was cleared).
 */
import { useEffect } from 'react';
import { putAgentDraft, useServerDraft } from '../../api/agent-admin';
import { bundleText } from '../../domain/bundles/analysis';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';

const SEND_AFTER_MS = 800;

export function useServerDraftSync(
  agentId: string | undefined,
  draft: string | undefined,
  baselineText: string | null,
): void {
  const server = useServerDraft(agentId ?? '', agentId !== undefined);
  const serverText = server.data ? bundleText(server.data.bundle) : null;

  // Start from the service's draft when this browser has none and it differs from the active version.
  useEffect(() => {
    if (!agentId || draft !== undefined || serverText === null || baselineText === null) return;
    if (serverText !== baselineText) useBundleDraftStore.getState().setDraft(agentId, serverText);
  }, [agentId, draft, serverText, baselineText]);

  // Send each edit (a JSON object only: half-typed text stays local until it parses).
  useEffect(() => {
    if (!agentId || draft === undefined || draft === serverText) return;
    const timer = setTimeout(() => {
      let doc: unknown;
      try {
        doc = JSON.parse(draft);
      } catch {
        return;
      }
      if (doc && typeof doc === 'object' && !Array.isArray(doc))
        putAgentDraft(agentId, doc as Record<string, unknown>).catch(() => undefined);
    }, SEND_AFTER_MS);
    return () => clearTimeout(timer);
  }, [agentId, draft, serverText]);
}
