/**
 * The graph model of a trace for a view: at once when it is known or small, else built in slices
 * (`graph-in-slices.ts`), with how far the build has got meanwhile.
 */
import { useEffect, useState } from 'react';
import type { TolerantTrace } from '../../contract/trace';
import { buildGraphInSlices, GRAPH_SLICE, graphItems, nextTask, rulesOf } from './graph-in-slices';
import { graphOf, knownGraph, type GraphModel } from './trace-to-graph';

export type GraphBuild = { model: GraphModel } | { model: undefined; rulesRead: number; rules: number };

/** `schedule` runs each slice (a task of its own by default). */
export function useGraphModel(
  trace: TolerantTrace,
  schedule: (run: () => void) => void = nextTask,
): GraphBuild {
  const [built, setBuilt] = useState<{ trace: TolerantTrace; model: GraphModel }>();
  const [read, setRead] = useState<{ trace: TolerantTrace; rulesRead: number }>();
  const known = knownGraph(trace) ?? (graphItems(trace) <= GRAPH_SLICE ? graphOf(trace) : undefined);
  useEffect(() => {
    if (known) return;
    return buildGraphInSlices(
      trace,
      {
        progress: (rulesRead) => setRead({ trace, rulesRead }),
        done: (model) => setBuilt({ trace, model }),
      },
      schedule,
    );
  }, [trace, known, schedule]);
  if (known) return { model: known };
  if (built?.trace === trace) return { model: built.model };
  return { model: undefined, rulesRead: read?.trace === trace ? read.rulesRead : 0, rules: rulesOf(trace) };
}
