/**
 * The parameters an entity holds, for the checks of entity conditions: its `parameters`, its
 * `identifier`, and those of the entities nested in its `sub_entities` (named or written inline),
 * at any depth. Computed once per bundle, each entity visited once.
 */
import { asArray, asObject, asString, type Json, type ValidationContext } from './validation-context';
import { spend } from './work-budget';

const cache = new WeakMap<Json, Map<string, Set<string>>>();

/** Every entity object of the bundle by name (the first of a name), nested ones included. */
function entityObjects(doc: Json): Map<string, Json> {
  const byName = new Map<string, Json>();
  const stack: Json[] = (asArray(doc.entities) ?? [])
    .map(asObject)
    .filter((o): o is Json => !!o)
    .reverse();
  while (stack.length > 0) {
    const e = stack.pop()!;
    spend(1);
    const name = asString(e.name);
    if (name !== undefined && !byName.has(name)) byName.set(name, e);
    const subs = asArray(e.sub_entities) ?? [];
    for (let j = subs.length - 1; j >= 0; j--) {
      const o = asObject(subs[j]);
      if (o) stack.push(o);
    }
  }
  return byName;
}

export function entityMembers(ctx: ValidationContext, entity: string): ReadonlySet<string> {
  let members = cache.get(ctx.doc);
  if (!members) cache.set(ctx.doc, (members = new Map()));
  const hit = members.get(entity);
  if (hit) return hit;
  const objects = entityObjects(ctx.doc);
  const out = new Set<string>();
  const seen = new Set<Json>();
  const stack = [objects.get(entity)];
  while (stack.length > 0) {
    const e = stack.pop();
    if (!e || seen.has(e)) continue;
    seen.add(e);
    spend(1);
    const id = asString(e.identifier);
    if (id !== undefined) out.add(id);
    for (const p of asArray(e.parameters) ?? []) if (typeof p === 'string') out.add(p);
    for (const s of asArray(e.sub_entities) ?? []) stack.push(asObject(s) ?? objects.get(asString(s) ?? ''));
  }
  members.set(entity, out);
  return out;
}
