/**
 * The `--agents` folders are read as untrusted input: a FIFO named like a project file neither
 * blocks the start nor a reload, a link to `/dev/zero` or out of the project is refused before
 * anything is read, a version id cannot lead out of the agent's folder, and no problem (in
 * `GET /reference/v1/agent-folders` or the start-up lines) quotes what a file holds.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess } from '../../tools/lib/service-process';
import { STARTER_DIR } from '../support/starter-agent';
import { call, KEYS, startService, storeEnv, tempDataDir, type Service } from './helpers';

const SECRET = 'SECRET-TOKEN-4fd9';

let root: string;
let folder: string;
let outside: string;
let service: Service;

/** A copy of the starter project named `name` in the agents folder (its folder name is its id). */
function project(name: string): string {
  const dir = join(folder, name);
  cpSync(STARTER_DIR, dir, { recursive: true });
  const agent = JSON.parse(readFileSync(join(dir, 'agent.aui.json'), 'utf8')) as Record<string, unknown>;
  delete agent.id;
  writeFileSync(join(dir, 'agent.aui.json'), JSON.stringify(agent));
  return dir;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'threadline-untrusted-folders-'));
  folder = join(root, 'agents');
  outside = join(root, 'outside');
  mkdirSync(folder);
  cpSync(STARTER_DIR, outside, { recursive: true });

  project('good');
  execFileSync('mkfifo', [join(project('piped'), 'extra.aui.json')]);
  symlinkSync('/dev/zero', join(project('zero'), 'more.aui.json'));
  const passwd = project('passwd');
  rmSync(join(passwd, 'parameters.aui.json'));
  symlinkSync('/etc/passwd', join(passwd, 'parameters.aui.json'));
  const linkedTools = project('linked-tools');
  rmSync(join(linkedTools, 'tools'), { recursive: true });
  symlinkSync(join(outside, 'tools'), join(linkedTools, 'tools'));
  writeFileSync(join(project('secret'), 'rules.aui.json'), `${SECRET} is not JSON\n`);
  mkdirSync(join(folder, 'escape'));
  writeFileSync(
    join(folder, 'escape', 'agent.json'),
    JSON.stringify({
      name: 'Escape',
      description: '',
      active_version: '../../outside',
      versions: [{ id: '../../outside', tag: 'v1', description: '' }],
    }),
  );

  service = await startService({ agentDirs: [folder] });
});
afterAll(async () => {
  await service?.dispose();
  rmSync(root, { recursive: true, force: true });
});

interface Problem {
  project: string;
  file: string;
  path: string;
  message: string;
}

const problemsOf = async (): Promise<{ text: string; problems: Problem[] }> => {
  const reply = await call<{ problems: Problem[] }>(service, 'GET', '/reference/v1/agent-folders');
  expect(reply.status).toBe(200);
  return { text: JSON.stringify(reply.body), problems: reply.body.problems };
};
const problemOf = (problems: Problem[], name: string) =>
  problems.filter((p) => p.project === join(folder, name));

describe('agent folders read as untrusted input', () => {
  it('starts despite a FIFO named like a project file, and reports it as not a regular file', async () => {
    const { problems } = await problemsOf();
    expect(problemOf(problems, 'piped')).toEqual([
      {
        project: join(folder, 'piped'),
        file: 'extra.aui.json',
        path: '',
        message: 'it is not a regular file',
        severity: 'error',
      },
    ]);
  });

  it('refuses a link to /dev/zero without reading it', async () => {
    const { problems } = await problemsOf();
    expect(problemOf(problems, 'zero')).toEqual([
      expect.objectContaining({
        file: 'more.aui.json',
        message: expect.stringMatching(/leads out of the project folder/),
      }),
    ]);
  });

  it('refuses a version id that names a folder outside the agent, and reads nothing there', async () => {
    const { text, problems } = await problemsOf();
    expect(problemOf(problems, 'escape')).toEqual([
      expect.objectContaining({
        file: 'agent.json',
        message: expect.stringMatching(
          /the version id "\.\.\/\.\.\/outside" cannot name a folder of the agent/,
        ),
      }),
    ]);
    expect(text).not.toContain(`${outside}/`);
  });

  it('refuses a folder linked from outside the project', async () => {
    const { problems } = await problemsOf();
    expect(problemOf(problems, 'linked-tools')).toEqual([
      expect.objectContaining({
        file: 'tools',
        message: expect.stringMatching(/leads out of the project folder/),
      }),
    ]);
  });

  it('quotes nothing a file holds: a link to /etc/passwd, a file that is not JSON', async () => {
    const { text, problems } = await problemsOf();
    expect(problemOf(problems, 'passwd')).toEqual([
      expect.objectContaining({ file: 'parameters.aui.json', message: expect.stringMatching(/leads out/) }),
    ]);
    expect(problemOf(problems, 'secret')).toEqual([
      expect.objectContaining({ file: 'rules.aui.json', message: 'it is not valid JSON' }),
    ]);
    expect(text).not.toContain('root:');
    expect(text).not.toContain(SECRET);
  });

  it('loads the sound project beside them', async () => {
    const agents = await call<{ agents: { id: string; source: string }[] }>(
      service,
      'GET',
      '/reference/v1/agents',
    );
    expect(agents.body.agents.filter((a) => a.source === 'folder').map((a) => a.id)).toEqual(['good']);
  });

  it('reloads with a FIFO added since, and keeps answering', async () => {
    const late = join(folder, 'good', 'late.aui.json');
    execFileSync('mkfifo', [late]);
    try {
      const reload = await call(service, 'POST', '/reference/v1/agents/reload');
      expect(reload.status).toBe(200);
      expect(reload.body.problems).toContainEqual(
        expect.objectContaining({
          project: join(folder, 'good'),
          file: 'late.aui.json',
          message: 'it is not a regular file',
        }),
      );
      expect((await call(service, 'GET', '/healthz', { key: null })).status).toBe(200);
    } finally {
      rmSync(late);
    }
    const again = await call(service, 'POST', '/reference/v1/agents/reload');
    expect(again.body.agents).toContain('good');
  });

  it('says the skipped projects at start without quoting any file', async () => {
    const dataDir = tempDataDir();
    const started = await startServiceProcess({
      data: dataDir,
      keys: KEYS,
      args: ['--agents', folder],
      env: await storeEnv(dataDir),
    });
    try {
      const lines = started.stderr();
      expect(lines).toContain('some agent projects were skipped:');
      expect(lines).toContain(`${join(folder, 'piped', 'extra.aui.json')}: it is not a regular file`);
      expect(lines).not.toContain('root:');
      expect(lines).not.toContain(SECRET);
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
    } finally {
      await started.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
