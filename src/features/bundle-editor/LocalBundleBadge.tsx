import { Badge } from '../../components/ui/Badge';
import { shortBundleHash } from './short-hash';

/** Marks a turn that ran with a local bundle (agent_settings_bundle), with its short hash. */
export function LocalBundleBadge({ hash }: { hash: string | null | undefined }) {
  const short = shortBundleHash(hash);
  if (!short) return null;
  return (
    <Badge tone="info" title={`Ran with a local bundle (hash ${hash})`}>
      local bundle #{short}
    </Badge>
  );
}
