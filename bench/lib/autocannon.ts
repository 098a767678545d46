/** autocannon (a CommonJS package without types) with the part of its API the benchmarks use. */
import { createRequire } from 'node:module';

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}

export interface AutocannonRequest {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * A request that sends a message with its trace to `tasks` in turn: the n-th request (from 1)
 * carries `body(n)` (its text, and anything else to send with it) to `tasks[n % tasks.length]`.
 */
export function roundRobinSends(
  tasks: readonly string[],
  body: (n: number) => { text: string } & Record<string, unknown>,
): AutocannonRequest {
  let n = 0;
  return {
    method: 'POST',
    setupRequest: (request) => {
      n += 1;
      const message = { type: 'message', task_id: tasks[n % tasks.length], ...body(n) };
      return { ...request, path: '/v1/messaging/messages?include_trace=true', body: JSON.stringify(message) };
    },
  };
}
