/**
 * The route plan: the API Gateway routes that serve the manifest's routes (routes.ts), derived
 * from it alone, so a route added to the manifest is planned without a second list.
 *
 * One API Gateway route per manifest route took the stack near CloudFormation's 500 resources and
 * toward HTTP APIs' 300 routes per API. So where every manifest route under a path prefix would
 * be served alike, one greedy route `ANY /api/<prefix>/{proxy+}` (or `POST …/{proxy+}` when they
 * share one method) serves them all: "alike" is the same function (route group), the same auth
 * kind (so the same authorizer) and so the same throttle class. A route under that prefix that
 * differs (another function, or another auth kind, e.g. a public or API-key route under a user
 * prefix) keeps an explicit route: API Gateway picks a full match before a greedy one. The HTTP
 * wrapper resolves the manifest route a greedy event stands for (http/handler.ts), among the routes
 * that greedy route serves only; the local gateway serves this same plan.
 *
 * Rules that keep the plan exactly equivalent to one route per manifest entry:
 * - greedy routes never nest (one prefix is never under another), so which greedy route takes a
 *   request rests only on API Gateway's documented "full match, then greedy" order;
 * - a route served by a greedy route must not lose a request to an explicit one: when an explicit
 *   route could match a request of it and is not more specific at every segment (a literal where
 *   it has a {variable}), it gets an explicit route too (repeated until nothing changes);
 * - a prefix gets a greedy route only when that saves routes over its sub-prefixes (ties go to the
 *   narrower ones), and never at /api itself.
 */
import { compareSpecificity, isGreedy, parseTemplate, type TemplateSegment } from './http/route-match.js';
import { routes, type AuthKind, type HttpMethod, type RouteDef, type RouteGroupName } from './routes.js';

/**
 * Which throttle bucket a route draws from, derived from its auth kind so a new route lands in
 * the right one without a second list: 'public' routes (sign-up, login, token refresh, code
 * sends, password reset) are what credential stuffing and mail bombing hit, so they get a
 * tight bucket; 'webhook' routes get their own generous one, so a burst of app traffic never
 * makes API Gateway refuse a provider's delivery (nor a webhook storm starve the app); every
 * other route shares the stage default.
 */
export type ThrottleClass = 'public' | 'webhook' | 'app';

export function throttleClassOf(route: Pick<RouteDef, 'auth'>): ThrottleClass {
  return route.auth === 'public' ? 'public' : route.auth === 'webhook' ? 'webhook' : 'app';
}

/** One API Gateway route of the HTTP API. */
export interface ApiRoute {
  /** API Gateway's route key: "GET /api/me", "ANY /api/contacts/{proxy+}". */
  key: string;
  method: HttpMethod | 'ANY';
  path: string;
  group: RouteGroupName;
  auth: AuthKind;
  throttle: ThrottleClass;
  /** A {proxy+} route serving several manifest routes (else exactly the manifest route of the same key). */
  greedy: boolean;
  /** "METHOD /path" of the manifest routes it serves. */
  serves: string[];
}

/** Greedy prefixes are at least this many segments deep: /api/<prefix>, never /api itself. */
const MIN_PREFIX_SEGMENTS = 2;

export const routeKeyOf = (route: Pick<RouteDef, 'method' | 'path'>): string => `${route.method} ${route.path}`;

interface Entry {
  route: RouteDef;
  key: string;
  method: string;
  segments: TemplateSegment[];
  /** Function and auth kind (the throttle class follows from the auth kind). */
  kind: string;
}

/** Whether some request path matches both templates (with the same method, unless anyMethod). */
function overlap(a: Entry, b: Entry, anyMethod = false): boolean {
  if (!anyMethod && a.method !== b.method) return false;
  const greedyA = isGreedy(a.segments);
  const greedyB = isGreedy(b.segments);
  const fixedA = greedyA ? a.segments.length - 1 : a.segments.length;
  const fixedB = greedyB ? b.segments.length - 1 : b.segments.length;
  if (!greedyA && !greedyB && fixedA !== fixedB) return false;
  if ((greedyA && !greedyB && fixedB <= fixedA) || (greedyB && !greedyA && fixedA <= fixedB)) return false;
  for (let i = 0; i < Math.min(fixedA, fixedB); i++) {
    const x = a.segments[i]!;
    const y = b.segments[i]!;
    if (x.kind === 0 && y.kind === 0 && x.text !== y.text) return false;
  }
  return true;
}

/**
 * Whether route a wins every request it shares with b under any "most specific" rule: it is never
 * less specific at a segment (a literal where b has a {variable}) and more specific at one. Routes
 * that share requests with neither dominating (/x/{id}/y and /x/z/{id}) are left to API Gateway.
 */
function dominates(a: Entry, b: Entry): boolean {
  if (isGreedy(a.segments) || isGreedy(b.segments) || a.segments.length !== b.segments.length) return false;
  return a.segments.every((s, i) => s.kind <= b.segments[i]!.kind) && compareSpecificity(a, b) < 0;
}

interface Greedy {
  /** Literal segments: ['api', 'contacts'] for ANY /api/contacts/{proxy+}. */
  prefix: string[];
  kind: string;
}

/** Whether every segment of `prefix` is the route's literal segment there, with more of the route after it. */
const encloses = (prefix: readonly string[], e: Entry) =>
  e.segments.length > prefix.length && prefix.every((text, i) => e.segments[i]!.kind === 0 && e.segments[i]!.text === text);

/** Whether some request of the route has a path under `prefix` (a {variable} may take the prefix's literal). */
const reaches = (prefix: readonly string[], e: Entry) =>
  e.segments.length > prefix.length && prefix.every((text, i) => e.segments[i]!.kind !== 0 || e.segments[i]!.text === text);

/**
 * The greedy prefixes (and the function and auth kind each serves) that leave the fewest API
 * Gateway routes, before conflicts: a route is served by the deepest greedy route whose prefix
 * encloses it when it is alike, else it keeps an explicit route. Ties keep the prefix without one.
 */
function cheapest(prefix: string[], below: readonly Entry[], inherited: string | undefined): { cost: number; greedy: Greedy[] } {
  const depth = prefix.length;
  const children = [...new Set(below.filter((e) => e.segments.length > depth + 1 && e.segments[depth]!.kind === 0).map((e) => e.segments[depth]!.text))];
  const level = below.filter((e) => !(e.segments.length > depth + 1 && e.segments[depth]!.kind === 0));
  const under = new Map(children.map((child) => [child, below.filter((e) => encloses([...prefix, child], e))]));
  const evaluate = (effective: string | undefined) => {
    const nested = children.map((child) => cheapest([...prefix, child], under.get(child)!, effective));
    return {
      cost: nested.reduce((n, c) => n + c.cost, 0) + level.filter((e) => e.kind !== effective || isGreedy(e.segments)).length,
      greedy: nested.flatMap((c) => c.greedy),
    };
  };
  let best = evaluate(inherited);
  if (depth < MIN_PREFIX_SEGMENTS) return best;
  for (const kind of new Set(below.map((e) => e.kind))) {
    if (kind === inherited) continue;
    const option = evaluate(kind);
    if (option.cost + 1 < best.cost) best = { cost: option.cost + 1, greedy: [{ prefix, kind }, ...option.greedy] };
  }
  return best;
}

/** An explicit API Gateway route: one manifest route, or several on one path with the same function and auth kind (method ANY). */
interface Explicit {
  entries: Entry[];
  methods: Set<string>;
  /** The first entry: the shared path's template. */
  template: Entry;
}

/** Whether explicit route x takes no request of route r that r would have won (any method for an ANY route). */
function wins(x: Explicit, r: Entry): boolean {
  if (x.entries.length === 1) return !overlap(x.template, r) || dominates(x.template, r);
  return !overlap(x.template, r, true) || (x.methods.has(r.method) && dominates(x.template, r));
}

/**
 * Explicit routes that share a path, a function and an auth kind become one ANY route, unless
 * another route on an overlapping path could then lose a request to it: each such route must be
 * of one of its methods and either be more specific (and explicit) or, behind a greedy route, less
 * specific; a route on the very same path with another method keeps its own (a named method
 * beats ANY on one path).
 */
function explicitRoutes(explicit: readonly Entry[], served: ReadonlyMap<Entry, Greedy>, all: readonly Entry[]): Explicit[] {
  const byPath = new Map<string, Entry[]>();
  for (const e of explicit) byPath.set(`${e.route.path} ${e.kind}`, [...(byPath.get(`${e.route.path} ${e.kind}`) ?? []), e]);
  return [...byPath.values()].flatMap((entries): Explicit[] => {
    const single = () => entries.map((e) => ({ entries: [e], methods: new Set([e.method]), template: e }));
    const template = entries[0]!;
    if (entries.length < 2 || isGreedy(template.segments)) return single();
    const methods = new Set(entries.map((e) => e.method));
    const safe = all.every(
      (r) =>
        entries.includes(r) ||
        r.route.path === template.route.path ||
        !overlap(template, r, true) ||
        (methods.has(r.method) && (served.has(r) ? dominates(template, r) || dominates(r, template) : dominates(r, template))),
    );
    return safe ? [{ entries, methods, template }] : single();
  });
}

interface Assignment {
  served: Map<Entry, Greedy>;
  explicit: Explicit[];
}

/**
 * Which greedy route serves each route, given the greedy routes: the deepest one that encloses it
 * when alike, unless that could change the route of a request; the rest keep explicit routes.
 * Routes only ever move from greedy to explicit, so this ends.
 */
function assign(all: readonly Entry[], greedy: readonly Greedy[]): Assignment {
  const forced = new Set<Entry>();
  for (;;) {
    const served = new Map<Entry, Greedy>();
    for (const e of all) {
      if (forced.has(e) || isGreedy(e.segments)) continue;
      const owner = greedy.filter((g) => encloses(g.prefix, e)).sort((a, b) => b.prefix.length - a.prefix.length)[0];
      if (owner?.kind === e.kind) served.set(e, owner);
    }
    const explicit = explicitRoutes(
      all.filter((e) => !served.has(e)),
      served,
      all,
    );
    const before = forced.size;
    for (const [m, owner] of served) {
      // A full match beats a greedy route: no explicit route may take one of its requests.
      if (explicit.some((x) => !wins(x, m))) forced.add(m);
      // A deeper greedy route would take the requests whose {variable} holds its prefix's literal.
      if (greedy.some((g) => g.prefix.length > owner.prefix.length && reaches(g.prefix, m))) forced.add(m);
      // Two routes behind one greedy route: the router must choose between them as API Gateway would.
      for (const [other, o] of served) if (other !== m && o === owner && overlap(m, other) && !dominates(m, other) && !dominates(other, m)) forced.add(m);
    }
    if (forced.size === before) return { served, explicit };
  }
}

/** The API Gateway routes for a route manifest (default: the manifest), in manifest order. */
export function routePlan(list: readonly RouteDef[] = routes): ApiRoute[] {
  const all: Entry[] = list.map((route) => ({
    route,
    key: routeKeyOf(route),
    method: route.method,
    segments: parseTemplate(route.path),
    kind: `${route.group} ${route.auth}`,
  }));
  let greedy = cheapest([], all, undefined).greedy;
  let assignment = assign(all, greedy);
  // A greedy route left serving fewer than two routes saves nothing: plan again without it.
  for (;;) {
    const kept = greedy.filter((g) => [...assignment.served.values()].filter((o) => o === g).length >= 2);
    if (kept.length === greedy.length) break;
    greedy = kept;
    assignment = assign(all, greedy);
  }
  const { served, explicit } = assignment;
  const isNested = (g: Greedy) => greedy.some((o) => o !== g && (o.prefix.length < g.prefix.length ? o.prefix.every((t, i) => g.prefix[i] === t) : g.prefix.every((t, i) => o.prefix[i] === t)));
  const units = [
    ...explicit.map((x) => ({ first: x.template, entries: x.entries, method: x.entries.length === 1 ? x.template.route.method : ('ANY' as const), path: x.template.route.path, greedy: false })),
    ...greedy.map((g) => {
      const entries = all.filter((e) => served.get(e) === g);
      // One method: only its requests reach the function (the others get API Gateway's 404, free).
      // Not for nested greedy routes: which of two wins would then weigh a method against a path.
      const methods = new Set(entries.map((e) => e.route.method));
      const method = methods.size === 1 && !isNested(g) ? entries[0]!.route.method : ('ANY' as const);
      return { first: entries[0]!, entries, method, path: `/${g.prefix.join('/')}/{proxy+}`, greedy: true };
    }),
  ];
  // In manifest order of each route's first manifest route (stable construct ids as routes come and go).
  units.sort((a, b) => all.indexOf(a.first) - all.indexOf(b.first));
  return units.map((u) => ({
    key: `${u.method} ${u.path}`,
    method: u.method,
    path: u.path,
    group: u.first.route.group,
    auth: u.first.route.auth,
    throttle: throttleClassOf(u.first.route),
    greedy: u.greedy,
    serves: u.entries.map((e) => e.key),
  }));
}

/** Each API Gateway route that serves several manifest routes (greedy, or ANY on one path) → those routes' keys: what the HTTP wrapper resolves among. */
export function sharedRoutes(plan: readonly ApiRoute[] = routePlan()): Record<string, string[]> {
  return Object.fromEntries(plan.filter((r) => r.serves.length > 1 || r.serves[0] !== r.key).map((r) => [r.key, r.serves]));
}
