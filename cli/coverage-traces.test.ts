import { describe, expect, it } from 'vitest';
import { coverage, runSuite, type ObservedTrace } from '../src/lib/test-cases';
import { exampleBundle } from '../server/agents/converse';
import { CoverageTraces } from './coverage-traces';
import { embeddedDriver } from './embedded-driver';
import { findCaseFiles, readCase } from './files';

describe('CoverageTraces', () => {
  it('keeps few traces, from which coverage is what every trace gives', async () => {
    const bundle = exampleBundle('card-disputes');
    const found = findCaseFiles('server/agents/card-disputes/tests');
    if ('error' in found) throw new Error(found.error);
    const cases = found.files.map((f) => {
      const read = readCase(f);
      if ('errors' in read) throw new Error(read.errors.join('\n'));
      return read.case;
    });
    // The suite twice: the second pass adds nothing new, so nothing of it is kept.
    const results = await runSuite(embeddedDriver(bundle), [...cases, ...cases]);
    const all: ObservedTrace[] = results.flatMap((r) => r.turns.map((t) => t.observed.trace));
    const kept = new CoverageTraces();
    for (const trace of all) kept.add(trace);
    expect(kept.traces().length).toBeLessThan(all.length / 2);
    expect(coverage(bundle, kept.traces())).toEqual(coverage(bundle, all));
  });
});
