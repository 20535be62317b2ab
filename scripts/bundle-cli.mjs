// Bundles the CLI into dist/cli/rollout-trace.mjs (+ dist/cli/chunk-*.mjs for what it loads lazily:
// ora, the tracker). client-node 2.x is ~3,000 ES modules; resolving and reading them one by one
// is most of an unbundled start (docs/performance.md), so the CLI runs as one bundle instead.
// Run by `npm run build` after tsc; `node scripts/bundle-cli.mjs ROOT` writes ROOT/dist/cli/ instead
// (the bundle reads ROOT/package.json for --version). esbuild is a dev dependency.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = fileURLToPath(new URL('..', import.meta.url));
const outdir = resolve(process.argv[2] ?? repo, 'dist/cli');
mkdirSync(outdir, { recursive: true });
for (const f of readdirSync(outdir, { withFileTypes: true })) {
  if (f.isFile() && /^(rollout-trace|chunk-|LEGAL)/.test(f.name) && /\.(mjs|map|txt)$/.test(f.name)) rmSync(resolve(outdir, f.name));
}
// `import … from 'node:http'` in an ES module makes Node build the module's ESM facade, which
// reads every export, and node:http's lazy WebSocket / MessageEvent getters then load Node's own
// copy of undici: 34 ms of a 0.4 s start-up (CPU profile). The same holds for the other builtins
// (node:fs's facade loads fs/promises and with it readline, node:crypto's webcrypto: 11 of the 113
// builtin modules a traced rollout loaded, about 10 ms of a 0.35 s start-up). Through require()
// nothing is read until used; the named exports are the module's plain data properties (never its
// lazy getters), and a missing one fails the build.
/** Every builtin module, with or without `node:`. */
const builtinPattern = new RegExp(`^(node:)?(${builtinModules.join('|')})$`);
const viaRequire = {
  name: 'builtins-via-require',
  setup(b) {
    b.onResolve({ filter: builtinPattern }, (args) =>
      args.kind === 'import-statement' ? { path: args.path.replace(/^node:/, ''), namespace: 'builtin-via-require' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin-via-require' }, ({ path }) => {
      const mod = createRequire(import.meta.url)(`node:${path}`);
      const names = Object.getOwnPropertyNames(mod).filter(
        (n) => /^[A-Za-z_$][\w$]*$/.test(n) && 'value' in Object.getOwnPropertyDescriptor(mod, n),
      );
      return {
        contents: `const m = require('node:${path}');\nexport const { ${names.join(', ')} } = m;\nexport default m;\n`,
        loader: 'js',
      };
    });
  },
};
// client-node's generated code (gen/: ~2,700 model classes, ObjectSerializer, the API classes) is
// reached through KubeConfig's module (gen/index.js re-exports all of it) but the CLI uses none of
// it. Each model assigns static fields after its class, which esbuild must keep unless told the
// files have no side effects; they have none (they only define classes and tables).
const clientNodeGen = /[\\/]@kubernetes[\\/]client-node[\\/]dist[\\/]gen[\\/]/;
const genWithoutSideEffects = {
  name: 'client-node-gen-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /^\.|^@kubernetes\/client-node\// }, async ({ path, importer, kind, resolveDir, pluginData }) => {
      if (pluginData === 'gen' || !(path.startsWith('@') || /[\\/]@kubernetes[\\/]client-node[\\/]/.test(importer))) return undefined;
      const r = await b.resolve(path, { kind, importer, resolveDir, pluginData: 'gen' });
      return r.errors.length === 0 && clientNodeGen.test(r.path) ? { path: r.path, sideEffects: false } : undefined;
    });
  },
};
// client-node's KubeConfig module imports undici (Agent, ProxyAgent; its generated clients fetch)
// for applySecurityAuthentication, which the CLI never calls: our requests go through node:https
// (src/cluster/raw-get.ts). undici is CommonJS, so a bundled import of it evaluates all of it at
// load (~70 ms of a 0.45 s start-up); behind this facade it is only evaluated on first use.
const lazyUndici = {
  name: 'lazy-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, ({ importer, namespace }) =>
      namespace === 'lazy-undici' || !/[\\/]@kubernetes[\\/]client-node[\\/]/.test(importer)
        ? undefined
        : { path: 'undici', namespace: 'lazy-undici' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-undici' }, () => ({
      contents: [
        'let undici;',
        "const load = () => (undici ??= require('undici'));",
        'export function Agent(options) { return new (load().Agent)(options); }',
        'export function ProxyAgent(options) { return new (load().ProxyAgent)(options); }',
        'export function fetch(...args) { return load().fetch(...args); }',
      ].join('\n'),
      resolveDir: repo,
      loader: 'js',
    }));
  },
};
// client-node's KubeConfig module imports the SOCKS client and agent (socks, socks-proxy-agent,
// ip-address: ~6 ms of a 0.13 s start-up, evaluated at load) for a kubeconfig whose cluster has a
// socks5:// proxy-url. They are evaluated on first use instead.
const lazySocks = {
  name: 'lazy-socks',
  setup(b) {
    b.onResolve({ filter: /^socks(-proxy-agent)?$/ }, ({ path, importer, namespace }) =>
      namespace === 'lazy-socks' || !/[\\/]@kubernetes[\\/]client-node[\\/]/.test(importer) ? undefined : { path, namespace: 'lazy-socks' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-socks' }, ({ path }) => ({
      contents:
        path === 'socks'
          ? "export const SocksClient = { createConnection: (...args) => require('socks').SocksClient.createConnection(...args) };"
          : "export function SocksProxyAgent(...args) { return new (require('socks-proxy-agent').SocksProxyAgent)(...args); }",
      resolveDir: repo,
      loader: 'js',
    }));
  },
};
await build({
  plugins: [viaRequire, genWithoutSideEffects, lazyUndici, lazySocks],
  entryPoints: { 'rollout-trace': resolve(repo, 'src/cli/main.ts') },
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // ROLLOUT_TRACE_BUNDLE_MINIFY=0: readable function names in a CPU profile (docs/dev/benchmarks.md).
  minify: process.env.ROLLOUT_TRACE_BUNDLE_MINIFY !== '0',
  keepNames: true,
  // No source map: the package ships no sources for one to point at (keepNames keeps stack traces readable).
  sourcemap: false,
  legalComments: 'linked',
  // ws's optional native add-ons: required inside try/catch, absent is fine. undici (755 kB, a
  // dependency of the package, so installed beside it) is required from node_modules on first use,
  // which the CLI never makes: in the bundle V8 would still read it at every start.
  external: ['bufferutil', 'utf-8-validate', 'undici'],
  // Bundled CommonJS dependencies call require(): give them Node's.
  banner: { js: "import { createRequire as __rtCreateRequire } from 'node:module'; const require = __rtCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
