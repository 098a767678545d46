import { describe, expect, it } from 'vitest';
import { assembleProject, disassembleBundle, toolFileStem } from './assemble';

const param = (code: string) => ({ code, type: 'string' as const });
const tool = (code: string) => ({ code, name: code.toLowerCase() });

describe('assembleProject', () => {
  it('maps each file onto its key, bare or wrapped, tools in file-name order', () => {
    const { bundle, issues } = assembleProject([
      { path: 'tools/freeze_card.aui.json', content: { tool: tool('FREEZE_CARD') } },
      { path: 'agent.aui.json', content: { name: 'Bank' } },
      { path: 'parameters.aui.json', content: [param('amount')] },
      { path: 'entities.aui.json', content: { entities: [{ name: 'card' }] } },
      { path: 'integrations.aui.json', content: [] },
      { path: 'rules.aui.json', content: { rules: [] } },
      { path: 'computations.aui.json', content: [] },
      { path: 'tools/dispute_charge.aui.json', content: tool('DISPUTE_CHARGE') },
    ]);
    expect(issues).toEqual([]);
    expect(bundle).toEqual({
      general_settings: { name: 'Bank' },
      parameters: [param('amount')],
      entities: [{ name: 'card' }],
      integrations: [],
      rules: [],
      computations: [],
      agent_tools: [tool('DISPUTE_CHARGE'), tool('FREEZE_CARD')],
    });
    expect(Object.keys(bundle)).toEqual([
      'general_settings',
      'parameters',
      'entities',
      'integrations',
      'rules',
      'computations',
      'agent_tools',
    ]);
  });

  it('accepts a wrapped agent.aui.json carrying schema_version', () => {
    const { bundle, issues } = assembleProject([
      { path: 'agent.aui.json', content: { schema_version: 1, general_settings: { name: 'A' } } },
    ]);
    expect(issues).toEqual([]);
    expect(bundle).toEqual({ schema_version: 1, general_settings: { name: 'A' } });
  });

  it('keeps a claimed "__proto__" key as a key, never as the bundle\'s prototype', () => {
    const { bundle } = assembleProject([
      {
        path: 'agent.aui.json',
        content: '{"general_settings": {"name": "A"}, "__proto__": {"agent_tools": []}}',
      },
    ]);
    expect(Object.getPrototypeOf(bundle)).toBe(Object.prototype);
    expect(Object.keys(bundle)).toEqual(['general_settings', '__proto__']);
    expect('agent_tools' in bundle).toBe(false);
  });

  it('treats a file named like a prototype member as unknown', () => {
    const { issues } = assembleProject([{ path: 'constructor.aui.json', content: [] }]);
    expect(issues.map((i) => i.code)).toEqual(['assembly_unknown_file']);
  });

  it('parses raw JSON text and normalises ./ and backslash paths', () => {
    const { bundle, issues } = assembleProject([
      { path: './parameters.aui.json', content: JSON.stringify([param('a')]) },
      { path: 'tools\\x.aui.json', content: '{"tool": {"code": "X"}}' },
    ]);
    expect(issues).toEqual([]);
    expect(bundle).toEqual({ parameters: [param('a')], agent_tools: [{ code: 'X' }] });
  });

  it('refuses two files claiming the same key, naming both, and never merges', () => {
    const { bundle, issues } = assembleProject([
      { path: 'parameters.aui.json', content: [param('a')] },
      { path: 'agent.aui.json', content: { general_settings: {}, parameters: [param('b')] } },
    ]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      code: 'assembly_duplicate_key',
      severity: 'error',
      loc: ['parameters.aui.json'],
    });
    expect(issues[0]!.message).toContain('agent.aui.json');
    expect(issues[0]!.message).toContain('parameters.aui.json');
    // the first claimant (in file-name order) is kept whole, the other is not merged into it
    expect(bundle.parameters).toEqual([param('b')]);
  });

  it('refuses tool files next to an agent_tools list defined elsewhere', () => {
    const { issues } = assembleProject([
      { path: 'agent.aui.json', content: { general_settings: {}, agent_tools: [tool('A')] } },
      { path: 'tools/b.aui.json', content: tool('B') },
    ]);
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'assembly_duplicate_key',
        severity: 'error',
        loc: ['agent.aui.json', 'agent_tools'],
      }),
    ]);
  });

  it('warns about unknown files and ignores them', () => {
    const { bundle, issues } = assembleProject([
      { path: 'notes.aui.json', content: {} },
      { path: 'tools/nested/deep.aui.json', content: tool('DEEP') },
      { path: 'README.md', content: '# hi' },
    ]);
    expect(bundle).toEqual({});
    expect(issues.map((i) => [i.code, i.severity, i.loc])).toEqual([
      ['assembly_unknown_file', 'warning', ['README.md']],
      ['assembly_unknown_file', 'warning', ['notes.aui.json']],
      ['assembly_unknown_file', 'warning', ['tools/nested/deep.aui.json']],
    ]);
  });

  it('reports invalid JSON and files of the wrong shape with the file path as loc', () => {
    const { issues } = assembleProject([
      { path: 'rules.aui.json', content: '{"rules": [' },
      { path: 'parameters.aui.json', content: { params: [] } },
      { path: 'agent.aui.json', content: ['x'] },
      { path: 'tools/a.aui.json', content: 'null' },
    ]);
    expect(issues.map((i) => [i.code, i.severity, i.loc])).toEqual([
      ['assembly_wrong_shape', 'error', ['agent.aui.json']],
      ['assembly_wrong_shape', 'error', ['parameters.aui.json']],
      ['assembly_invalid_json', 'error', ['rules.aui.json']],
      ['assembly_wrong_shape', 'error', ['tools/a.aui.json']],
    ]);
  });

  it('warns about keys beside a tool wrapper', () => {
    const { bundle, issues } = assembleProject([
      { path: 'tools/a.aui.json', content: { tool: tool('A'), note: 'x' } },
    ]);
    expect(bundle.agent_tools).toEqual([tool('A')]);
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'assembly_ignored_key',
        severity: 'warning',
        loc: ['tools/a.aui.json', 'note'],
      }),
    ]);
  });
});

describe('disassembleBundle', () => {
  it('writes one wrapped file per key and per tool, which assemble back to the same bundle', () => {
    const bundle = {
      schema_version: 1 as const,
      general_settings: { name: 'Bank' },
      parameters: [param('amount')],
      rules: [{ then: { action: 'TEXT' as const } }],
      agent_tools: [tool('DISPUTE_CHARGE'), tool('FREEZE_CARD')],
      custom_extension: { x: 1 },
    };
    const files = disassembleBundle(bundle);
    expect(files.map((f) => f.path)).toEqual([
      'agent.aui.json',
      'parameters.aui.json',
      'rules.aui.json',
      'tools/dispute_charge.aui.json',
      'tools/freeze_card.aui.json',
    ]);
    expect(files[0]!.content).toEqual({
      schema_version: 1,
      general_settings: { name: 'Bank' },
      custom_extension: { x: 1 },
    });
    expect(files[3]!.content).toEqual({ tool: tool('DISPUTE_CHARGE') });
    const back = assembleProject(files);
    expect(back.issues).toEqual([]);
    expect(back.bundle).toEqual(bundle);
  });

  it('prefixes tool files with their position when names alone would reorder the tools', () => {
    const bundle = { agent_tools: [tool('ZETA'), tool('ALPHA'), tool('ALPHA')] };
    const files = disassembleBundle(bundle);
    expect(files.map((f) => f.path)).toEqual([
      'tools/01_zeta.aui.json',
      'tools/02_alpha.aui.json',
      'tools/03_alpha_2.aui.json',
    ]);
    expect(assembleProject(files).bundle).toEqual(bundle);
  });

  it('writes the tools alias as tool files too', () => {
    const files = disassembleBundle({ tools: [tool('A')] });
    expect(files).toEqual([{ path: 'tools/a.aui.json', content: { tool: tool('A') } }]);
  });

  it('gives an empty project for an empty bundle', () => {
    expect(disassembleBundle({})).toEqual([]);
  });
});

describe('toolFileStem', () => {
  it('lower-cases codes and replaces unsafe characters', () => {
    expect(toolFileStem('DISPUTE_CHARGE')).toBe('dispute_charge');
    expect(toolFileStem('../Evil Tool!')).toBe('evil_tool');
    expect(toolFileStem(undefined)).toBe('tool');
  });
});
