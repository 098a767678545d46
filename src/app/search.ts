/**
 * The workspace's URL state: everything a link must reproduce, never a secret.
 * `task` = thread, `turn` = a pinned interaction id (absent = follow the newest turn), `node` =
 * selected graph node, `tab` = inspector tab, `compare` = `<taskA>..<taskB>` (the compare view),
 * `only=differences` = the comparison's filter, `parent` + `fork` = a branch's origin (task and
 * interaction ids, carried only for servers that do not keep lineage), `server` = the API base
 * URL of a shared link, `view=search` = the turn search with `find` = its filters (the service's
 * query string), `view=rule` = the page of rule `rule` of agent `agent`. Bad values are dropped,
 * never a crash.
 */
import { z } from 'zod';

const optionalText = z
  .preprocess(
    (v) => (v === null || v === undefined || v === '' ? undefined : typeof v === 'string' ? v : String(v)),
    z.string().max(500).optional(),
  )
  .catch(undefined);

export const WorkspaceSearch = z.object({
  task: optionalText,
  turn: optionalText,
  node: optionalText,
  tab: optionalText,
  compare: optionalText,
  only: optionalText,
  parent: optionalText,
  fork: optionalText,
  /** The API base URL a trace link's thread lives on (never followed without asking). */
  server: optionalText,
  /** A main view other than the thread (`search`, `rule`). */
  view: optionalText,
  /** The rule page's agent and rule id. */
  agent: optionalText,
  rule: optionalText,
  /** The turn search's filters, as the service's query string. */
  find: z
    .preprocess((v) => (typeof v === 'string' && v !== '' ? v : undefined), z.string().max(4000).optional())
    .catch(undefined),
});
export type WorkspaceSearch = z.infer<typeof WorkspaceSearch>;

export function parseWorkspaceSearch(raw: Record<string, unknown>): WorkspaceSearch {
  const parsed = WorkspaceSearch.parse(raw);
  // Drop undefined keys so URLs stay short.
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined));
}
