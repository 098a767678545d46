import { useDebouncedValue } from '../../components/ui/use-debounced-value';
import { useConnectionStore } from './connection-store';

/**
 * True when an API key is set and has not changed for a moment: reads wait for it, so typing a
 * key does not send one refused request per keystroke.
 */
export function useKeyReady(): boolean {
  const key = useConnectionStore((s) => s.apiKey);
  const settled = useDebouncedValue(key, 700);
  return key.length > 0 && settled === key;
}
