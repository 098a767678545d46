/** File names of cases in a suite folder: `<slug>.case.json`, unique within the suite. */
export const CASE_SUFFIX = '.case.json';
const MAX_SLUG = 80;

/** A file name made from a case's name: lowercase letters, digits and dashes. */
export function caseFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG)
    .replace(/^-+|-+$/g, '');
  return `${slug || 'case'}${CASE_SUFFIX}`;
}

/** `file`, or `file` with `-2`, `-3`… before its suffix when the name is taken. */
export function uniqueFileName(file: string, taken: ReadonlySet<string>): string {
  if (!taken.has(file)) return file;
  const stem = file.endsWith(CASE_SUFFIX) ? file.slice(0, -CASE_SUFFIX.length) : file.replace(/\.json$/, '');
  // At most taken.size + 1 tries: one of them is free.
  for (let n = 2; n <= taken.size + 2; n++) {
    const candidate = `${stem}-${n}${CASE_SUFFIX}`;
    if (!taken.has(candidate)) return candidate;
  }
  return `${stem}-${taken.size + 2}${CASE_SUFFIX}`;
}
