import { describe, expect, it } from 'vitest';
import { exportFileName, importFiles, projectPaths, unwrapBundle } from './import-files';

const j = (v: unknown) => JSON.stringify(v);

describe('projectPaths', () => {
  it('drops the picked folder name (and shared folders above it)', () => {
    expect(projectPaths(['card/agent.aui.json', 'card/tools/x.aui.json'])).toEqual([
      'agent.aui.json',
      'tools/x.aui.json',
    ]);
    expect(projectPaths(['a/b/agent.aui.json', 'a/b/tools/x.aui.json'])).toEqual([
      'agent.aui.json',
      'tools/x.aui.json',
    ]);
  });
  it('keeps a tools folder that is part of the project', () => {
    expect(projectPaths(['tools/x.aui.json', 'tools/y.aui.json'])).toEqual([
      'tools/x.aui.json',
      'tools/y.aui.json',
    ]);
  });
  it('puts dropped loose tool files under tools/', () => {
    expect(projectPaths(['agent.aui.json', 'rules.aui.json', 'dispute_charge.aui.json'])).toEqual([
      'agent.aui.json',
      'rules.aui.json',
      'tools/dispute_charge.aui.json',
    ]);
  });
  it('handles Windows separators', () => {
    expect(projectPaths(['proj\\agent.aui.json', 'proj\\tools\\t.aui.json'])).toEqual([
      'agent.aui.json',
      'tools/t.aui.json',
    ]);
  });
});

describe('importFiles', () => {
  it('assembles a picked project folder', () => {
    const r = importFiles([
      {
        path: 'card-disputes/agent.aui.json',
        text: j({ general_settings: { name: 'Cards' }, schema_version: 1 }),
      },
      { path: 'card-disputes/parameters.aui.json', text: j([{ code: 'amount', type: 'numeric' }]) },
      { path: 'card-disputes/tools/dispute_charge.aui.json', text: j({ tool: { code: 'DISPUTE_CHARGE' } }) },
      { path: 'card-disputes/README.md', text: '# notes' },
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.kind).toBe('project');
    expect(r.fileCount).toBe(3);
    expect(JSON.parse(r.text)).toEqual({
      schema_version: 1,
      general_settings: { name: 'Cards' },
      parameters: [{ code: 'amount', type: 'numeric' }],
      agent_tools: [{ code: 'DISPUTE_CHARGE' }],
    });
  });

  it("refuses a project whose files conflict, with the assembler's issues", () => {
    const r = importFiles([
      { path: 'p/parameters.aui.json', text: j({ parameters: [], rules: [] }) },
      { path: 'p/rules.aui.json', text: j([]) },
    ]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(/could not be assembled/);
    expect(r.issues.map((i) => i.code)).toContain('assembly_duplicate_key');
  });

  it('reports a project file that is not JSON', () => {
    const r = importFiles([{ path: 'p/agent.aui.json', text: '{oops' }]);
    expect(r.ok).toBe(false);
  });

  it('reads a single bundle file, unwrapping an agent-bundle answer', () => {
    const bundle = { parameters: [] };
    const plain = importFiles([{ path: 'b.json', text: j(bundle) }]);
    expect(plain.ok && JSON.parse(plain.text)).toEqual(bundle);
    const wrapped = importFiles([{ path: 'b.json', text: j({ agent_id: 'x', version_id: 'v1', bundle }) }]);
    expect(wrapped.ok && JSON.parse(wrapped.text)).toEqual(bundle);
    const body = importFiles([
      { path: 'req.json', text: j({ task_id: 't', agent_settings_bundle: bundle }) },
    ]);
    expect(body.ok && JSON.parse(body.text)).toEqual(bundle);
  });

  it('says what is wrong with a pick it cannot use', () => {
    expect(importFiles([])).toMatchObject({ ok: false });
    expect(importFiles([{ path: 'a.txt', text: '' }])).toMatchObject({ ok: false });
    expect(importFiles([{ path: 'bad.json', text: '{' }])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not valid JSON/),
    });
  });
});

describe('unwrapBundle and exportFileName', () => {
  it('leaves a plain bundle alone, even one with a "bundle" key among others', () => {
    const doc = { bundle: {}, parameters: [] };
    expect(unwrapBundle(doc)).toBe(doc);
    expect(unwrapBundle([1])).toEqual([1]);
  });
  it('makes a safe file name', () => {
    expect(exportFileName('card-disputes')).toBe('card-disputes.bundle.json');
    expect(exportFileName('A B/../c')).toBe('a-b-c.bundle.json');
    expect(exportFileName(null)).toBe('agent.bundle.json');
  });
});
