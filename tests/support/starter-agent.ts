/** The starter template shipped in docs/bundle/starter-agent, assembled into one bundle for tests. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectFiles } from '../../server/agents/registry';
import { assembleProject } from '../../src/lib/bundle/assemble';

export const STARTER_DIR = join(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../docs/bundle/starter-agent',
);

export function starterBundle(): Record<string, unknown> {
  const { bundle, issues } = assembleProject(projectFiles(STARTER_DIR));
  if (issues.some((i) => i.severity === 'error'))
    throw new Error(`the starter agent does not assemble: ${issues[0]!.message}`);
  return bundle;
}
