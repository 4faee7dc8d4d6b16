// @ts-check
/**
 * Import boundaries (ARCHITECTURE §3, §6), enforced by lint instead of remembered:
 * - functions/src/domain imports no adapter, composition, handler or SDK — only other domain
 *   modules, contract/ (pure zod shapes), lib/ and a few pure libraries;
 * - domain areas depend one way, down the tiers below (an area may import only areas of a
 *   lower tier), so channels use conversations/agents/integrations and never the reverse;
 * - handlers reach adapters and SDKs only through composition/ (the logger excepted);
 * - contract/ is pure shapes; adapters never reach up into handlers, composition or workers;
 * - a frontend feature imports shared/, api/, i18n/ and theme/, never another feature or app/.
 */
import path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);
const functionsSrc = path.join(root, 'functions/src');
const frontendSrc = path.join(root, 'frontend/src');

/** Lower tiers first. Same-tier areas are independent of each other (the two channels too). */
const DOMAIN_TIERS = [
  ['secrets', 'ai', 'auth', 'billing', 'contacts', 'dashboard', 'api-keys', 'notifications'],
  ['account', 'knowledge', 'integrations'],
  ['agents'],
  ['conversations'],
  ['whatsapp', 'voice'],
];
const tierOf = new Map(DOMAIN_TIERS.flatMap((areas, tier) => areas.map((area) => [area, tier])));

/** Packages the domain may use: Node built-ins and pure libraries, never an SDK or I/O client. */
const DOMAIN_PACKAGES = [/^node:/, /^libphonenumber-js(\/|$)/];
/** Provider and cloud SDKs: adapters only. */
const SDK_PACKAGES = [/^@aws-sdk\//, /^@smithy\//, /^stripe$/, /^twilio(\/|$)/, /^openai(\/|$)/, /^@aws-lambda-powertools\//];

/** `functions/src/domain/voice/x.ts` → ['domain', 'voice']; outside → undefined. */
function segmentsUnder(base, file) {
  const relative = path.relative(base, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep);
}

function backendViolation(from, target, specifier) {
  const [layer, area] = from;
  const isPackage = target === undefined;
  if (layer === 'domain') {
    if (isPackage) return DOMAIN_PACKAGES.some((p) => p.test(specifier)) ? undefined : `the domain imports no package like '${specifier}': declare a port and implement it in adapters/`;
    const [targetLayer, targetArea] = target;
    if (!['domain', 'contract', 'lib'].includes(targetLayer)) return `the domain never imports ${targetLayer}/: declare a port in the domain and wire it in composition/`;
    if (targetLayer !== 'domain' || !tierOf.has(area) || !tierOf.has(targetArea) || area === targetArea) return undefined;
    if (tierOf.get(targetArea) >= tierOf.get(area)) return `domain/${area} may not import domain/${targetArea}: domain areas depend one way (see DOMAIN_TIERS in eslint.boundaries.js); pass it through a port instead`;
    return undefined;
  }
  if (layer === 'contract') {
    if (isPackage) return /^zod(\/|$)/.test(specifier) ? undefined : `contract/ holds pure zod shapes and imports no '${specifier}'`;
    return target[0] === 'contract' ? undefined : `contract/ imports only contract/, not ${target[0]}/`;
  }
  if (layer === 'handlers') {
    if (isPackage) return SDK_PACKAGES.some((p) => p.test(specifier)) ? `handlers never use an SDK ('${specifier}'): go through composition/` : undefined;
    if (target[0] === 'adapters' && target[1].replace(/\.[jt]s$/, '') !== 'logger') return 'handlers reach adapters only through composition/';
    if (target[0] === 'workers' || target[0] === 'handlers') return `a handler does not import ${target[0]}/`;
    return undefined;
  }
  if (layer === 'adapters' && !isPackage && ['handlers', 'composition', 'workers', 'schedules'].includes(target[0])) {
    return `adapters implement ports and never import ${target[0]}/`;
  }
  return undefined;
}

function frontendViolation(from, target) {
  if (target === undefined) return undefined;
  const [layer, feature] = from;
  const [targetLayer, targetFeature] = target;
  if (layer === 'features') {
    if (targetLayer === 'features' && targetFeature !== feature) return `features/${feature} may not import features/${targetFeature}: move what both need into shared/`;
    if (targetLayer === 'app') return 'features never import app/ (app composes the features): use shared/';
  }
  if (['shared', 'api', 'i18n', 'theme'].includes(layer) && (targetLayer === 'features' || targetLayer === 'app')) {
    return `${layer}/ is below the features and may not import ${targetLayer}/`;
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const importBoundaries = {
  meta: { type: 'problem', schema: [], docs: { description: 'Keeps the layering of ARCHITECTURE §3 and §6' } },
  create(context) {
    const file = context.filename;
    const backend = segmentsUnder(functionsSrc, file);
    const frontend = segmentsUnder(frontendSrc, file);
    if (!backend && !frontend) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string') return;
      const base = backend ? functionsSrc : frontendSrc;
      const relative = specifier.startsWith('.');
      const target = relative ? segmentsUnder(base, path.resolve(path.dirname(file), specifier)) : undefined;
      if (relative && !target) return; // outside the source tree (e.g. test fixtures): not a layer
      const message = backend ? backendViolation(backend, target, specifier) : frontendViolation(frontend, target);
      if (message) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export const boundaries = { rules: { 'import-boundaries': importBoundaries } };
