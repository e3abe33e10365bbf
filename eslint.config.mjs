/**
 * ESLint flat config: the extension template's setup (typescript-eslint,
 * @jupyter/eslint-plugin, Prettier) plus JupyterLab's stricter rules and one
 * `no-restricted-imports` rule per folder that keeps the layers pointing one way.
 */
import { builtinModules } from 'node:module';

import js from '@eslint/js';
import jupyterPlugin from '@jupyter/eslint-plugin';
import prettierConfig from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Node built-ins, bare (`fs`) and prefixed (`node:fs`). */
const nodeBuiltins = [
  ...new Set(builtinModules.flatMap(name => [name, `node:${name}`]))
];

/** The restrictions shared by the layers, as `no-restricted-imports` parts. */
const restrict = {
  widgets: {
    regex: '^(\\.\\./)+(widgets|plugins)(/|$)',
    message: 'Only plugins and widgets may import widgets and plugins.'
  },
  entry: {
    regex: '^(\\.\\./)+(index|icons)$|^\\.\\.$',
    message:
      'The plugin list and the icons belong to the UI; import the module you need.'
  },
  application: {
    group: ['@jupyterlab/application', '@jupyterlab/application/**'],
    message: "Only plugins use JupyterLab's application."
  },
  lumino: {
    group: ['@lumino/widgets', '@lumino/widgets/**'],
    message: 'Lumino widgets belong to src/widgets.'
  },
  ui: {
    group: [
      '@jupyterlab/ui-components',
      '@jupyterlab/apputils',
      '@jupyterlab/cells',
      '@jupyterlab/codemirror',
      '@jupyterlab/docmanager',
      '@jupyterlab/filebrowser',
      '@jupyterlab/notebook',
      '@codemirror/*',
      'react',
      'react-dom',
      'react/**',
      'react-dom/**'
    ],
    message: 'DOM and UI packages belong to src/widgets and src/plugins.'
  },
  node: {
    message: 'Node-only modules belong to src/cli.'
  }
};

/**
 * The core's layers, lowest first: each imports only the ones before it
 * (the check's runs in src/repair use src/kernel, which never imports them).
 */
const LAYERS = ['replay', 'casebook', 'kernel', 'state', 'repair'];

/** What sits above every core layer. */
const ABOVE_CORE = ['verify', 'score', 'progress', 'authoring', 'workshop'];

/** A restriction on the folders above a core layer: arrows point down. */
function above(layer) {
  const folders = [
    ...LAYERS.slice(LAYERS.indexOf(layer) + 1),
    ...ABOVE_CORE,
    'model',
    'cli'
  ];
  return {
    regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
    message: `src/${layer} is below ${folders.join(', ')}: import downward only.`
  };
}

/** A `no-restricted-imports` rule from restriction names. */
function layerRule(...names) {
  const patterns = names
    .filter(name => name !== 'node')
    .map(name => (typeof name === 'string' ? { ...restrict[name] } : name));
  const paths = names.includes('node')
    ? nodeBuiltins.map(name => ({ name, message: restrict.node.message }))
    : [];
  return ['error', { paths, patterns }];
}

/** The rules every TypeScript file follows (no type information needed). */
const sharedRules = {
  '@typescript-eslint/naming-convention': [
    'error',
    {
      selector: 'interface',
      format: ['PascalCase'],
      custom: {
        regex: '^I[A-Z]',
        match: true
      }
    }
  ],
  '@typescript-eslint/no-unused-vars': ['warn', { args: 'none' }],
  '@typescript-eslint/no-explicit-any': 'error',
  '@typescript-eslint/consistent-type-imports': 'error',
  '@typescript-eslint/no-namespace': 'off',
  '@typescript-eslint/no-use-before-define': 'off',
  curly: ['error', 'all'],
  eqeqeq: 'error',
  'prefer-arrow-callback': 'error'
};

export default defineConfig([
  {
    ignores: [
      '**/node_modules/**',
      'lib/**',
      'lib-cli/**',
      'jupyterlab_junobench/**',
      'coverage/**',
      'build/**',
      'dist/**',
      'docs/**',
      'demo/**',
      'binder/**',
      '.yarn/**',
      '.venv/**',
      'ui-tests/playwright-report/**',
      'ui-tests/test-results/**',
      '**/*.js',
      '**/*.d.ts'
    ]
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  jupyterPlugin.configs.recommended,
  // Turn off the stylistic rules Prettier owns (`jlpm prettier:check` runs
  // it); placed before our rules so that `curly: all`, which Prettier does not
  // touch, stays on.
  prettierConfig,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      globals: {
        ...globals.browser,
        ...globals.es2015,
        ...globals.node
      },
      sourceType: 'module'
    },
    rules: sharedRules
  },
  // Typed linting: the library against tsconfig.json, the Jest tests against
  // tsconfig.test.json (which also holds src, so both see the same types).
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    languageOptions: {
      parserOptions: {
        project: './tsconfig.json',
        tsconfigRootDir: import.meta.dirname
      }
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': 'error'
    }
  },
  {
    files: ['test/**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: './tsconfig.test.json',
        tsconfigRootDir: import.meta.dirname
      }
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': 'error'
    }
  },
  // Tests build fixtures (`title: ...` rows, locators), not user-visible strings.
  {
    files: ['test/**/*.ts', 'ui-tests/**/*.ts'],
    rules: {
      'jupyter/no-untranslated-string': 'off'
    }
  },
  // Layers point one way (house style): the core never imports the UI, the
  // application or Node; the CLI never imports the UI.
  {
    files: [
      'src/authoring/**/*.ts',
      'src/i18n.ts',
      'src/verify/**/*.ts',
      'src/score/**/*.ts',
      'src/workshop/**/*.ts'
    ],
    rules: {
      'no-restricted-imports': layerRule(
        'widgets',
        'entry',
        'application',
        'lumino',
        'ui',
        'node'
      )
    }
  },
  {
    files: ['src/model/**/*.ts', 'src/progress/**/*.ts'],
    rules: {
      'no-restricted-imports': layerRule(
        'widgets',
        'entry',
        'application',
        'lumino',
        'node'
      )
    }
  },
  // The kernel adapter may use UI-free JupyterLab services but, like every
  // core layer, imports only the layers below it.
  ...LAYERS.map(layer => ({
    files: [`src/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': layerRule(
        'widgets',
        'entry',
        'application',
        'lumino',
        ...(layer === 'kernel' ? [] : ['ui']),
        'node',
        above(layer)
      )
    }
  })),
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': layerRule(
        'widgets',
        'entry',
        'application',
        'lumino',
        'ui'
      )
    }
  }
]);
