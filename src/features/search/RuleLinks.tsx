/**
 * The rules of an agent's bundle, each a way to its page (counts, results per day, latest turns):
 * shown beside the bundle editor.
 */
import { useAgentBundle } from '../../api/agent-bundle';
import { bundleRules } from '../../lib/bundle/rules-of';

export function RuleLinks({ agentId, openRule }: { agentId: string; openRule: (ruleId: string) => void }) {
  const bundle = useAgentBundle(agentId);
  if (bundle.isPending) return <p className="text-xs text-zinc-500">Reading the bundle…</p>;
  if (bundle.isError)
    return (
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {agentId}’s bundle is not available from this service.
      </p>
    );
  const rules = bundleRules(bundle.data.bundle);
  if (rules.length === 0) return <p className="text-xs text-zinc-500">This bundle has no rule.</p>;
  return (
    <ul aria-label="Rule pages" className="flex flex-wrap gap-1 py-1">
      {rules.map((r) => (
        <li key={r.id}>
          <button
            type="button"
            className="rounded border border-zinc-200 px-1.5 py-0.5 font-mono text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
            title={`${r.id}: its definition, how often it was evaluated and with which results`}
            onClick={() => openRule(r.id)}
          >
            {r.id}
          </button>
        </li>
      ))}
    </ul>
  );
}
