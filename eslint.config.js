import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const root = import.meta.dirname;
const at = (...parts) => path.join(root, ...parts);
const features = readdirSync(at('src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Which code may import which (see README, "Layout"): imports flow one way,
 * lib/contract/components/ui → api → domain → components → features → app. A feature imports no
 * other feature, not even its index.ts: what two features share is state and models (src/domain)
 * or a widget (src/components); where one feature shows another's view, src/app composes them.
 * The browser never imports the service, and the service takes only the shared contract, the
 * bundle library and the decision cause from src/; the service layer and the engine import
 * neither server/http nor server/routes.
 */
const boundaries = [
  {
    target: ['src/lib', 'src/contract', 'src/components/ui'],
    from: ['src/features', 'src/app', 'src/api', 'src/domain', 'src/main.tsx'],
    message:
      'lib, contract and components/ui are shared building blocks: they import no api, domain, feature or app code.',
  },
  {
    target: 'src/components',
    from: ['src/features', 'src/app'],
    message: 'components are shared widgets: they import no feature or app code.',
  },
  {
    target: 'src/domain',
    from: ['src/features', 'src/app', 'src/main.tsx'],
    message: 'src/domain holds state and models below the features: it imports no feature or app code.',
  },
  {
    target: 'src/domain',
    from: 'src/components',
    except: ['./ui'],
    message: 'src/domain sits below the shared widgets: it may use components/ui hooks only.',
  },
  {
    target: 'src/api',
    from: ['src/features', 'src/app', 'src/domain', 'src/components'],
    message: 'src/api talks to the service: it imports no domain, component, feature or app code.',
  },
  ...features.map((name) => ({
    target: `src/features/${name}`,
    from: `src/features/!(${name})/**`,
    message: `A feature imports no other feature: move what '${name}' needs into src/domain (state, models) or src/components (widgets), or compose the two views in src/app.`,
  })),
  { target: 'src', from: 'server', message: 'The browser code never imports the service.' },
  {
    target: 'src',
    from: 'engine',
    message:
      'The page runs the engine off the main thread: import it from a Web Worker module (`*.worker.ts`) and talk to the worker.',
  },
  {
    target: 'engine',
    from: ['server', 'cli', 'bench', 'scripts', 'e2e', 'tests', 'tools'],
    message:
      'The engine is a library of pure modules: it imports no service, CLI or test code (they import it).',
  },
  {
    target: 'engine',
    from: 'src',
    except: ['./contract', './lib/bundle', './lib/decision-cause.ts'],
    message:
      'The engine takes only the shared contract (src/contract), the bundle library (src/lib/bundle) and what decides a trace (src/lib/decision-cause.ts) from src/.',
  },
  // Test and tooling code: what two of them share lives in tools/lib, which imports none of them.
  ...[
    ['bench', 'benchmarks'],
    ['scripts', 'scripts'],
    ['e2e', 'browser tests'],
    ['tests', 'API and reliability tests'],
  ].map(([folder, what]) => ({
    target: ['bench', 'scripts', 'e2e', 'tests'].filter((other) => other !== folder),
    from: folder,
    message: `The ${what} import no other test or tooling folder: share code through tools/lib.`,
  })),
  {
    target: 'tools',
    from: ['bench', 'scripts', 'e2e', 'tests', 'cli'],
    message: 'tools/lib is shared by tests, benchmarks and scripts: it imports none of them.',
  },
  {
    target: ['src', 'engine', 'server'],
    from: 'cli',
    message: 'The CLI is an entry point: nothing imports it.',
  },
  {
    target: 'server/service',
    from: ['server/http', 'server/routes'],
    message:
      'The service knows nothing of HTTP: throw the errors of server/service/errors.ts; server/http answers them.',
  },
  {
    target: 'server',
    from: 'src',
    except: ['./contract', './lib/bundle', './lib/decision-cause.ts', './lib/trace-tones.ts'],
    message:
      'The service takes only the shared contract (src/contract), the bundle library (src/lib/bundle) and what decides a trace (src/lib/decision-cause.ts) from src/.',
  },
];

/** Product code never imports test support (the engine's purity rule repeats it: a later rule replaces an earlier one). */
const NO_TEST_SUPPORT = {
  group: ['**/*.fixture', '**/*.fixture.*', '**/fixtures/**'],
  message: 'Product code never imports test support (`*.fixture.ts`, `fixtures/`).',
};

export default tseslint.config(
  {
    ignores: ['dist', 'dist-node', '.e2e', 'node_modules', 'test-results', 'playwright-report', 'docs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // Type-aware rules that do not pay here: values parsed from JSON are `unknown` and narrowed by
      // zod (tests read JSON bodies as `any` on purpose), the store's async interface has
      // synchronous SQLite implementations, and `String(value)` of an unknown is deliberate.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaries }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Web Workers run the engine in the page, off the main thread. Every other boundary still holds.
    files: ['src/**/*.worker.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: boundaries.filter((z) => !(z.target === 'src' && z.from === 'engine')) },
      ],
    },
  },
  {
    // The engine's tests may read the example agents and generated bundles the other tests use.
    files: ['engine/**/*.test.ts', 'engine/**/*.fixture.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: boundaries.filter((z) => !(z.target === 'engine' && z.from.includes?.('server'))),
        },
      ],
    },
  },
  {
    // Test support beside product code is named `*.fixture.ts` (data it reads sits in a
    // `fixtures/` folder): only tests and other fixtures import it, so no build ever ships it.
    files: ['src/**/*.{ts,tsx}', 'server/**/*.{ts,mjs}', 'cli/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.fixture.{ts,tsx,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [NO_TEST_SUPPORT],
        },
      ],
    },
  },
  {
    // The engine is pure: no Node module, no browser or Node global. The service's worker pool, the
    // page's Web Worker and the CLI all run it as it is.
    files: ['engine/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.fixture.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_TEST_SUPPORT,
            {
              regex:
                '^(node:|fs$|path$|os$|crypto$|child_process$|worker_threads$|url$|hono|better-sqlite3|pg$|react)',
              message:
                'The engine is pure: it imports no Node module, HTTP framework, store driver or UI library.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'self',
          'navigator',
          'localStorage',
          'sessionStorage',
          'fetch',
          'XMLHttpRequest',
          'process',
          'Buffer',
          'require',
          '__dirname',
          '__filename',
          'setImmediate',
          'setTimeout',
          'setInterval',
          'performance',
          'crypto',
          'indexedDB',
        ].map((name) => ({
          name,
          message:
            'The engine is pure and deterministic: no clock, I/O, timer or host object (pass what it needs in).',
        })),
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...Object.assign({}, ...pluginQuery.configs['flat/recommended-strict'].map((c) => c.rules)),
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
