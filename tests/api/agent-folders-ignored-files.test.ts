/**
 * A file of an `--agents` project whose name is not a project file's (`rule.aui.json` for
 * `rules.aui.json`) is reported wherever the project is read, never ignored in silence: the
 * project still loads, and the start-up lines, `POST /reference/v1/agents/reload` and
 * `GET /reference/v1/agent-folders` name the file as ignored (severity `warning`).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess } from '../../tools/lib/service-process';
import { STARTER_DIR } from '../support/starter-agent';
import { call, KEYS, startService, storeEnv, tempDataDir, type Service } from './helpers';

let folder: string;
let service: Service;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'threadline-ignored-files-'));
  const project = join(folder, 'hotel');
  cpSync(STARTER_DIR, project, { recursive: true });
  const agent = JSON.parse(readFileSync(join(project, 'agent.aui.json'), 'utf8')) as Record<string, unknown>;
  delete agent.id;
  writeFileSync(join(project, 'agent.aui.json'), JSON.stringify(agent));
  // A global rule in a file named `rule.aui.json`: one letter off, so not a project file.
  writeFileSync(join(project, 'rule.aui.json'), JSON.stringify([{ code: 'NEVER_READ', when: null }]));
  service = await startService({ agentDirs: [folder] });
});
afterAll(async () => {
  await service?.dispose();
  rmSync(folder, { recursive: true, force: true });
});

const ignored = () =>
  expect.objectContaining({
    project: join(folder, 'hotel'),
    file: 'rule.aui.json',
    severity: 'warning',
    message: expect.stringMatching(/rule\.aui\.json is not part of an agent project .*it was ignored/),
  });

describe('a misnamed project file', () => {
  it('is named by agent-folders and by a reload, while the project loads', async () => {
    const agents = (await call(service, 'GET', '/reference/v1/agents')).body.agents as { id: string }[];
    expect(agents.map((a) => a.id)).toContain('hotel');
    const { problems } = (await call(service, 'GET', '/reference/v1/agent-folders')).body;
    expect(problems).toEqual([ignored()]);
    const reload = await call(service, 'POST', '/reference/v1/agents/reload');
    expect(reload.status).toBe(200);
    expect(reload.body.agents).toContain('hotel');
    expect(reload.body.problems).toEqual([ignored()]);
  });

  it('is named in the start-up lines, apart from the projects skipped', async () => {
    const dataDir = tempDataDir();
    const started = await startServiceProcess({
      data: dataDir,
      keys: KEYS,
      args: ['--agents', folder],
      env: await storeEnv(dataDir),
    });
    try {
      const lines = started.stderr();
      expect(lines).toContain('agents from folders: hotel');
      expect(lines).toContain('some files of loaded agent projects were ignored:');
      expect(lines).toContain(`${join(folder, 'hotel', 'rule.aui.json')}: rule.aui.json is not part of`);
      expect(lines).not.toContain('some agent projects were skipped:');
    } finally {
      await started.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
