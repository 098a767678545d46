/**
 * One change to a bundle at a path (`set` a value, or `remove` an element of a list), as the
 * why-not list proposes them: applied by the engine to prove a change and by the browser to make
 * it a draft. The bundle is not modified: only the objects along the path are copied.
 */
import type { Bundle } from '../../contract/bundle';

export type BundleChange =
  { op: 'set'; path: (string | number)[]; value: unknown } | { op: 'remove'; path: (string | number)[] };

export function applyBundleChange(bundle: Bundle, change: BundleChange): Bundle {
  const copy = (node: unknown, path: (string | number)[]): unknown => {
    const [key, ...rest] = path;
    if (key === undefined) return change.op === 'set' ? change.value : node;
    if (Array.isArray(node)) {
      const out = [...node];
      if (rest.length === 0 && change.op === 'remove') out.splice(Number(key), 1);
      else out[Number(key)] = copy(node[Number(key)], rest);
      return out;
    }
    const obj = node && typeof node === 'object' ? (node as Record<string, unknown>) : {};
    return { ...obj, [key]: copy(obj[key as string], rest) };
  };
  return copy(bundle, change.path) as Bundle;
}
