import { useEffect, useState } from 'react';

/** `value`, once it has stopped changing for `ms` (the first value is settled at once). */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    // Sync with a timer (an outside system): publish the value after a quiet period.
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
