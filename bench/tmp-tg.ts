import { engine } from '../server/engine';
import { validateBundle } from '../src/lib/bundle/validate';
const T = Number(process.argv[2] ?? 2000), G = Number(process.argv[3] ?? 3000);
const bundle: any = {
  parameters: [{ code: 'amount', type: 'numeric' }],
  rules: Array.from({ length: G }, (_, i) => ({ code: `G${i}`, when: { method: 'param_value', params: 'amount', operation: 'gt', value: i }, then: { action: 'TEXT', message: 'hi' } })),
  agent_tools: [
    { code: 'MAIN', name: 'File a claim', main_tool: true, rules: { pre: { constraint: Array.from({ length: T }, (_, i) => ({ when: null, then: { action: 'ACTIVATE_SUB_TOOL', settings: { tool: `SUB_${i}` } } })) } } },
    ...Array.from({ length: T }, (_, i) => ({ code: `SUB_${i}` })),
  ],
};
console.log('size', JSON.stringify(bundle).length);
let t = performance.now();
console.log(validateBundle(bundle).filter((i) => i.severity === 'error').slice(0, 3), performance.now() - t);
t = performance.now();
try {
  const out = engine.runTurn({ bundle, state: engine.initialState(bundle, '2025-01-01T00:00:00Z', 'u'), text: 'file a claim for $5', clock: '2025-01-01T00:00:00Z', interactionId: 'm', userId: 'u' });
  console.log(out.trace.decision, out.trace.rules_evaluated.length);
} catch (e) { console.log('threw', (e as Error).message); }
console.log('turn ms', performance.now() - t);
import { compileBundle } from '../server/engine/compile';
t = performance.now();
compileBundle(JSON.parse(JSON.stringify(bundle)));
console.log('compile ms', performance.now() - t);
