/**
 * Fails with the list of exports nobody imports, in the product code (src/, engine/, server/, cli/).
 * Parses every TypeScript file of the repository with the TypeScript compiler API (no type
 * checking, so it takes seconds), collects what each module exports and what every import,
 * re-export and dynamic `import()` takes from relative modules, and prints the exports no file
 * takes. An import from a test counts (a test is a user of the module). Entry points (the page,
 * the service and the CLI mains, workers) are not checked; an export kept on purpose for users
 * outside the repository says so with a `@public` JSDoc tag. `npm test` runs it: a new export
 * nobody imports fails the run.
 *
 *   npx tsx scripts/unused-exports.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const SCANNED = ['src', 'engine', 'server', 'cli', 'tests', 'e2e', 'bench', 'scripts', 'tools'];
const CHECKED = ['src/', 'engine/', 'server/', 'cli/'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.e2e']);
const ENTRY = [/^src\/main\.tsx$/, /\.worker\.ts$/, /^server\/main\.ts$/, /^cli\/[^/]+\.ts$/];
const ALL = '*';
/** Exports kept although no file imports them (`path name`), each with its reason beside it: none today. */
const ALLOWED = new Set<string>();

function filesUnder(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const files = [
  ...SCANNED.flatMap((d) => filesUnder(join(ROOT, d))),
  ...readdirSync(ROOT)
    .filter((n) => /\.ts$/.test(n))
    .map((n) => join(ROOT, n)),
];
const known = new Set(files);

/** A relative specifier to the file it names ('./x', './x.js', './x?worker', a folder's index). */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec.replace(/\?.*$/, '').replace(/\.(m?js|jsx)$/, ''));
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.mts`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ])
    if (known.has(candidate)) return candidate;
  return undefined;
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
const isPublic = (node: ts.Node) => ts.getJSDocTags(node).some((t) => t.tagName.text === 'public');

interface Export {
  file: string;
  name: string;
  line: number;
  /** An interface or type alias (checked only with --types). */
  type: boolean;
}

const exportsOf: Export[] = [];
/** file → names taken from it (ALL = every export). */
const used = new Map<string, Set<string>>();
const use = (file: string | undefined, name: string) => {
  if (!file) return;
  let names = used.get(file);
  if (!names) used.set(file, (names = new Set()));
  names.add(name);
};

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const declare = (name: string, node: ts.Node, type = false) => {
    if (!isPublic(node)) exportsOf.push({ file, name, line: lineOf(node), type });
  };

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const target = resolveSpecifier(file, statement.moduleSpecifier.text);
      const clause = statement.importClause;
      if (!clause)
        use(target, ALL); // a side-effect import
      else {
        if (clause.name) use(target, 'default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) use(target, ALL);
        else if (bindings) for (const el of bindings.elements) use(target, (el.propertyName ?? el.name).text);
      }
    } else if (ts.isExportDeclaration(statement)) {
      const target =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? resolveSpecifier(file, statement.moduleSpecifier.text)
          : undefined;
      const clause = statement.exportClause;
      if (!clause)
        use(target, ALL); // export * from
      else if (ts.isNamespaceExport(clause)) {
        use(target, ALL);
        declare(clause.name.text, statement);
      } else
        for (const el of clause.elements) {
          if (statement.moduleSpecifier) use(target, (el.propertyName ?? el.name).text);
          declare(el.name.text, el, statement.isTypeOnly || el.isTypeOnly);
        }
    } else if (ts.isExportAssignment(statement)) {
      declare('default', statement);
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) declare('default', statement);
      else if (ts.isVariableStatement(statement))
        for (const d of statement.declarationList.declarations) {
          if (ts.isIdentifier(d.name)) declare(d.name.text, statement);
        }
      else {
        const name = (statement as ts.DeclarationStatement).name;
        const type = ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement);
        if (name && ts.isIdentifier(name)) declare(name.text, statement, type);
      }
    }
  }

  // import('./x') and typeof import('./x') anywhere in the file take the whole module.
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      use(resolveSpecifier(file, node.arguments[0].text), ALL);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      use(resolveSpecifier(file, node.argument.literal.text), ALL);
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const withTypes = process.argv.includes('--types');
const unused = exportsOf.filter(({ file, name, type }) => {
  if (type && !withTypes) return false;
  const path = relative(ROOT, file).split('\\').join('/');
  if (!CHECKED.some((d) => path.startsWith(d)) || ENTRY.some((re) => re.test(path))) return false;
  if (ALLOWED.has(`${path} ${name}`)) return false;
  const names = used.get(file);
  return !names?.has(ALL) && !names?.has(name);
});

if (unused.length > 0) {
  console.error(
    `${unused.length} export(s) nobody imports (remove the export, or tag a deliberate one @public):`,
  );
  for (const u of unused) console.error(`  ${relative(ROOT, u.file)}:${u.line}  ${u.name}`);
  process.exit(1);
}
console.log(`unused exports: none (${exportsOf.length} exports checked in ${files.length} files)`);
