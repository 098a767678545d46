/**
 * The starter template offered by *New agent*: the small agent of the bundle guide (one tool, one
 * policy rule, one confirmation), read from its project folder in the repository at build time.
 */
import { importFiles, type PickedFile } from '../../../domain/bundles/import-files';

const FILES = import.meta.glob<string>('../../../../docs/bundle/starter-agent/**/*.aui.json', {
  eager: true,
  query: '?raw',
  import: 'default',
});

/** The starter agent as bundle text (the project's files assembled). */
export function starterTemplateText(): string {
  const picked: PickedFile[] = Object.entries(FILES).map(([path, text]) => ({
    path: path.replace(/^.*\/starter-agent\//, ''),
    text,
  }));
  const result = importFiles(picked);
  return result.ok ? result.text : '';
}
