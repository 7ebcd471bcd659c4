/**
 * The feature rule as an ESLint rule: a feature imports the shared layers and itself, never
 * another feature or `app/`; a shared layer never imports a feature or `app/`; `app/` composes.
 *
 * Written here rather than taken from eslint-plugin-import-x: its resolver's native bindings
 * are optional packages the registry this project installs from does not serve for every
 * platform, which leaves `package-lock.json` unusable by `npm ci`. Every specifier this app
 * writes is either `@/…` (the `src/` alias) or relative, so resolving is a path join.
 */
import path from 'node:path';

const FEATURES_MESSAGE =
  'Features never import each other: move the shared part to a shared layer, or compose the features in app/.';
const SHARED_MESSAGE = 'Shared layers never import features or app/.';

/** Where a file of `src/` lives: `{ layer: 'features', feature: 'auth' }`, `{ layer: 'lib' }`… */
export function placeOf(srcDir, file) {
  const relative = path.relative(srcDir, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [layer, feature, ...rest] = relative.split(path.sep);
  if (rest.length === 0 && feature === undefined) return { layer: '' };
  return layer === 'features' ? { layer, feature } : { layer };
}

/** The reason `importer` may not import `target`, or null when it may. */
export function refusal(from, to) {
  if (!from || !to || from.layer === 'app' || from.layer === '') return null;
  if (from.layer === 'features') {
    if (to.layer === 'app') return FEATURES_MESSAGE;
    if (to.layer === 'features' && to.feature !== from.feature) return FEATURES_MESSAGE;
    return null;
  }
  return to.layer === 'features' || to.layer === 'app' ? SHARED_MESSAGE : null;
}

function resolveSpecifier(srcDir, importer, specifier) {
  if (specifier.startsWith('@/')) return path.join(srcDir, specifier.slice(2));
  if (specifier.startsWith('.')) return path.resolve(path.dirname(importer), specifier);
  return null;
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'features import shared layers and themselves; shared layers import no feature or app/' },
    schema: [{ type: 'object', properties: { srcDir: { type: 'string' } }, required: ['srcDir'] }],
  },
  create(context) {
    const { srcDir } = context.options[0];
    const importer = context.physicalFilename;
    const from = placeOf(srcDir, importer);
    if (!from) return {};
    const check = (source) => {
      if (!source || typeof source.value !== 'string') return;
      const target = resolveSpecifier(srcDir, importer, source.value);
      const message = target && refusal(from, placeOf(srcDir, target));
      if (message) context.report({ node: source, message: `${message} ('${source.value}')` });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source.type === 'Literal' ? node.source : null),
    };
  },
};

export default { rules: { layers } };
