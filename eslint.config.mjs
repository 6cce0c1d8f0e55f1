// Lint rules for the TypeScript and JavaScript sources (npm run lint).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'prebuilds/', 'node_modules/', '.cross/', 'test/fuzz/corpus/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        URL: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
        BigInt: 'readonly',
        SharedArrayBuffer: 'readonly',
        Atomics: 'readonly',
        structuredClone: 'readonly',
        globalThis: 'readonly',
        WebAssembly: 'readonly',
        Response: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Scripts that run in a browser page.
    files: ['test/browser/*-page.mjs', 'bench/browser-page.mjs', 'wasm/browser-shims.mjs'],
    languageOptions: { globals: { fetch: 'readonly', Blob: 'readonly', MessageChannel: 'readonly', ReadableStream: 'readonly' } },
  },
  {
    // The browser demo's page and worker.
    files: ['examples/browser/*.js'],
    languageOptions: { globals: { document: 'readonly', Worker: 'readonly', self: 'readonly' } },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
