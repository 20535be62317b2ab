// Types of `rollout-trace/pulumi` for CommonJS programs type-checked with Node16/NodeNext
// resolution (the `require` condition of package.json "exports"). The package is ESM; Node 22
// require()s it (require(esm)), so a CommonJS program gets the very same module and types.
// @ts-ignore TS1479 (a CommonJS declaration re-exporting an ES module), true only before require(esm).
export * from '../dist/pulumi/index.js';
