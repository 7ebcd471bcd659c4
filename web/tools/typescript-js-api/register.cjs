/**
 * Answers this process's `require('typescript')` with TypeScript 6.0, this package's dependency.
 * typescript-eslint 8 parses through the compiler's JavaScript API, which TypeScript 7 (the
 * build's `tsc`, web/node_modules/typescript) no longer ships; eslint.config.js loads this first.
 */
const Module = require('node:module');

/** A module in this folder, so that `typescript` resolves to this package's own dependency. */
const here = { id: __filename, filename: __filename, paths: Module._nodeModulePaths(__dirname) };

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveTypescriptJsApi(request, parent, ...rest) {
  const fromHere = request === 'typescript' || request.startsWith('typescript/');
  return resolveFilename.call(this, request, fromHere ? here : parent, ...rest);
};
