/** Details of the selected graph node (predicate, result, reason, parameters, unknown fields). */
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { displayValue, toPrettyJson } from '../../lib/format';
import type { GraphNodeModel } from './trace-to-graph';

function Value({ value }: { value: unknown }) {
  if (value !== null && typeof value === 'object') {
    return (
      <pre className="overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">
        {toPrettyJson(value)}
      </pre>
    );
  }
  const text = displayValue(value);
  return text ? (
    <span className="break-words whitespace-pre-wrap">{text}</span>
  ) : (
    <span className="text-zinc-500 italic dark:text-zinc-400">empty</span>
  );
}

/** A search for turns like this one at a node (given by the app where search is offered). */
export type FindLike = (filter: NonNullable<GraphNodeModel['find']>) => void;

/** Opens the page of a rule (given by the app where rule pages are offered). */
export type OpenRule = (ruleId: string) => void;

export function NodeInspector({
  node,
  findLike,
  openRule,
}: {
  node: GraphNodeModel;
  findLike?: FindLike | undefined;
  openRule?: OpenRule | undefined;
}) {
  const find = node.find;
  // A rule node's filter is `RULE_ID:result` (a result holds no colon).
  const ruleId =
    node.kind === 'rule' && find?.field === 'rule' ? find.value.slice(0, find.value.lastIndexOf(':')) : '';
  return (
    <div
      className="flex flex-col gap-2 p-3 text-sm wrap-anywhere"
      aria-label={`Details of ${node.label}`}
      role="region"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold break-all">{node.label}</h3>
        <Badge tone={node.tone}>{node.kind === 'group' ? 'group' : (node.badge ?? node.kind)}</Badge>
        {find && findLike ? (
          <Button size="sm" variant="ghost" className="ml-auto" onClick={() => findLike(find)}>
            Find turns like this
          </Button>
        ) : null}
        {ruleId && openRule ? (
          <Button
            size="sm"
            variant="ghost"
            className={find && findLike ? '' : 'ml-auto'}
            onClick={() => openRule(ruleId)}
          >
            Rule’s page
          </Button>
        ) : null}
      </div>
      {node.kind === 'group' ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Click the group in the graph (or press Enter on it) to show or hide what it holds.
        </p>
      ) : null}
      <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3 gap-y-1.5">
        {node.details.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="text-xs font-medium text-zinc-500 dark:text-zinc-400">{key}</dt>
            <dd className="min-w-0">
              <Value value={value} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
