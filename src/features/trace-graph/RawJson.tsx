import { Button } from '../../components/ui/Button';
import { usePassingStatus } from '../../components/ui/use-passing-status';
import { toPrettyJson } from '../../lib/format';

/** The trace as JSON, with a copy button. Traces carry no secrets (the key never enters one). */
export function RawJson({ value, label }: { value: unknown; label: string }) {
  const text = toPrettyJson(value);
  const [status, setStatus] = usePassingStatus();
  const copy = () => {
    navigator.clipboard
      .writeText(text)
      .then(() => setStatus('Copied.'))
      .catch(() => setStatus('Copy failed: select the text instead.'));
  };
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex items-center gap-2 px-3 py-1.5">
        <Button size="sm" onClick={copy}>
          Copy JSON
        </Button>
        <span role="status" className="text-xs text-zinc-500">
          {status}
        </span>
      </div>
      <pre
        aria-label={label}
        tabIndex={0}
        className="min-h-0 flex-1 overflow-auto bg-zinc-50 px-3 py-2 font-mono text-xs dark:bg-zinc-950"
      >
        {text}
      </pre>
    </div>
  );
}
