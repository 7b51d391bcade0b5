// The house's import rules (docs/architecture.md, "The map"), checked on every relative import:
// - a module (src/modules/<name>/) reaches another module only through that module's index.ts;
// - the platform (src/platform/) knows nothing of commerce: it imports no module;
// - the core (src/core/) is pure and shared with the browser: it imports only the core;
// - migrations (src/platform/db/migrations/) are written against the schema of their day: no module code;
// - a module imports nothing of the composition (src/cli/, src/server/): the composition imports the modules.
import { statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

const inside = (file, folder) => {
  const rel = relative(resolve(ROOT, folder), file);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
};
const isFolder = (path) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
/** The module a file is in, or that an import names by its folder ('../../modules/search' is search's index.ts). */
const moduleOf = (file) => {
  const rel = relative(resolve(ROOT, 'src/modules'), file).split(sep);
  if (rel[0] === '..' || rel[0] === '') return undefined;
  return rel.length > 1 || isFolder(file) ? rel[0] : undefined;
};

function problem(importer, target) {
  const from = moduleOf(importer);
  const to = moduleOf(target);
  if (inside(importer, 'src/core')) {
    return inside(target, 'src/core')
      ? undefined
      : 'the core imports only the core (it is pure and runs in the browser)';
  }
  if (inside(importer, 'src/platform/db/migrations') && (to || inside(target, 'src/server'))) {
    return 'a migration imports no module code: it is written against the schema of its day';
  }
  if (inside(importer, 'src/platform') && to) {
    return `the platform imports no module (it knows nothing of commerce): '${to}' must register with the platform instead`;
  }
  if (from && (inside(target, 'src/cli') || inside(target, 'src/server'))) {
    return `module '${from}' imports the composition (${relative(ROOT, target)}): the composition imports the modules, not the other way round; ask the platform for what you need (src/platform/cli/database.ts gives commands their database)`;
  }
  if (from && to && from !== to) {
    const rel = relative(resolve(ROOT, 'src/modules', to), target);
    if (rel !== '' && rel !== 'index.ts' && rel !== 'index') {
      return `module '${from}' reaches into module '${to}' (${rel}): import '${to}' through its index.ts`;
    }
  }
  return undefined;
}

const rule = {
  meta: { type: 'problem', schema: [], docs: { description: 'module, platform and core import boundaries' } },
  create(context) {
    const importer = context.filename;
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolve(dirname(importer), source);
      const message = problem(importer, target);
      if (message) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'module-boundaries': rule } };
