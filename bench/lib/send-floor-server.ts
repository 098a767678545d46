/**
 * The floor of a send: a bare `node:http` server doing only what a send cannot do without, with
 * the service's own engine and store code. Per `POST /v1/messaging/messages`: parse the body, read
 * the task (SQLite), read the thread's state, run the engine turn of the task's example agent in
 * this thread (`timedTurn`: the trace serialised and its turn index entry built), store it with
 * the real SQLite store's append (its writer thread, the turn row, the turn index, the thread list
 * order), and answer the service's JSON (`messageJson`, the trace included). Per
 * `GET /v1/messaging/tasks/:task/interactions/:id/trace-info`: the same SQLite read as the service
 * (`getTraceJson`), answered as stored. No framework, no validation, no keys, no log.
 *
 *   node --import tsx bench/lib/send-floor-server.ts <data folder> <tasks> <agent id>
 *
 * Creates `<tasks>` tasks for the sends and one task with five turns for the reads, then prints
 * `listening <url> <json>` where the JSON names them: `{ tasks, readTask, interactions }`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { loadAgents, resolveVersion } from '../../server/agents/registry';
import { engine } from '../../engine';
import { newId } from '../../server/service/ids';
import { messageJson } from '../../server/service/responses';
import { SqliteStore } from '../../server/store/sqlite-store';
import type { ComputedTurn, TaskRecord } from '../../server/store/store';
import { timedTurn } from '../../server/work/engine-work';
import { FIVE_TURNS } from './conversation';

const [dataDir, taskCount, agentId] = process.argv.slice(2);
const store = new SqliteStore({ dataDir: dataDir! });
const agent = loadAgents().find((a) => a.id === agentId);
const version = agent && resolveVersion(agent, {});
if (!agent || !version) throw new Error(`no example agent ${agentId}`);
const bundle = version.bundle;

async function createTask(userId: string): Promise<string> {
  const now = new Date().toISOString();
  const welcome = engine.welcome(bundle, now);
  const task: TaskRecord = {
    id: newId('task'),
    agentId: agent!.id,
    userId,
    origin: 'web-widget',
    title: welcome.title,
    welcomeMessage: welcome.welcome_message,
    suggestions: welcome.suggestions,
    versionId: version!.id,
    versionTag: version!.tag,
    clock: now,
    initialState: engine.initialState(bundle, now, userId),
    branchOf: null,
    createdAt: now,
  };
  await store.createTask(task);
  return task.id;
}

/** One send: the task read, the turn run on the thread's state and appended; the answer's JSON. */
async function send(taskId: string, text: string): Promise<string | undefined> {
  const task = await store.getTask(taskId);
  if (!task) return undefined;
  const userMessageAt = new Date().toISOString();
  const turn = await store.appendTurn(taskId, (state): ComputedTurn => {
    const interactionId = newId('message');
    const run = timedTurn(
      engine,
      { bundle, state, text, clock: task.clock, interactionId, userId: task.userId },
      { taskId, agentId: task.agentId, versionId: version!.id, bundleHash: null },
    );
    return {
      taskId,
      interactionId,
      userMessage: { id: newId('message'), text, createdAt: userMessageAt },
      reply: { text: run.reply, suggestions: run.suggestions, createdAt: new Date().toISOString() },
      traceJson: run.traceJson,
      indexEntry: run.indexEntry,
      state: run.state,
      bundleHash: null,
      versionId: version!.id,
    };
  });
  return messageJson(task, turn, true);
}

function answer(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const TRACE = /^\/v1\/messaging\/tasks\/([^/]+)\/interactions\/([^/]+)\/trace-info$/;

async function handle(req: IncomingMessage, body: string, res: ServerResponse) {
  const path = req.url!.split('?')[0]!;
  if (req.method === 'POST' && path === '/v1/messaging/messages') {
    const message = JSON.parse(body) as { task_id: string; text: string };
    const json = await send(message.task_id, message.text);
    return json === undefined ? answer(res, 404, '{}') : answer(res, 200, json);
  }
  const trace = TRACE.exec(path);
  if (req.method === 'GET' && trace) {
    const read = await store.getTraceJson(trace[1]!, trace[2]!);
    return read?.traces ? answer(res, 200, read.traces) : answer(res, 404, '{}');
  }
  answer(res, 404, '{}');
}

const tasks: string[] = [];
for (let i = 0; i < Number(taskCount); i += 1) tasks.push(await createTask(`floor-${i}`));
const readTask = await createTask('floor-read');
const interactions: string[] = [];
for (const text of FIVE_TURNS) {
  const json = await send(readTask, text);
  interactions.push((JSON.parse(json!) as { id: string }).id);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    handle(req, Buffer.concat(chunks).toString(), res).catch((error: unknown) => {
      answer(res, 500, JSON.stringify({ error: String(error) }));
    });
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(
    `listening http://127.0.0.1:${port} ${JSON.stringify({ tasks, readTask, interactions })}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => void store.close().then(() => process.exit(0))));
