/**
 * Route templates ("/api/contacts/{id}", "/api/contacts/{proxy+}") matched against request paths
 * as an API Gateway HTTP API chooses a route: the method must be the route's (or the route's is
 * ANY), a route without a greedy variable beats one with it, and among the rest the more specific
 * template wins (compared segment by segment: a literal before a {variable} before a {greedy+};
 * then a named method before ANY). One implementation for the HTTP wrapper's router (a greedy
 * route's event resolved to its manifest route, http/handler.ts), the local gateway and the route
 * plan (route-plan.ts), so the three cannot disagree. Pure and small: it is in every API bundle.
 */

/** 0: a literal segment, 1: a {variable}, 2: a greedy {variable+} (the last segment only). */
export type SegmentKind = 0 | 1 | 2;

export interface TemplateSegment {
  kind: SegmentKind;
  /** The literal text, or the variable's name. */
  text: string;
}

/** "/api/contacts/{id}" → its segments (the leading "/" dropped). */
export function parseTemplate(path: string): TemplateSegment[] {
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      const m = /^\{([\w-]+)(\+?)\}$/.exec(segment);
      return m?.[1] ? { kind: m[2] ? 2 : 1, text: m[1] } : { kind: 0, text: segment };
    });
}

/** A request path's segments, as parseTemplate cuts a template. */
export const pathSegments = (path: string): string[] => path.split('/').slice(1);

/** A raw path segment decoded as API Gateway decodes path parameters (kept as sent when it is not valid percent-encoding). */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const isGreedy = (segments: readonly TemplateSegment[]): boolean => segments.at(-1)?.kind === 2;

/** Negative when route a is chosen before route b for a request both match. */
export function compareSpecificity(
  a: { method: string; segments: readonly TemplateSegment[] },
  b: { method: string; segments: readonly TemplateSegment[] },
): number {
  const greedyA = isGreedy(a.segments);
  if (greedyA !== isGreedy(b.segments)) return greedyA ? 1 : -1;
  const shared = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < shared; i++) {
    const diff = a.segments[i]!.kind - b.segments[i]!.kind;
    if (diff !== 0) return diff;
  }
  if (a.segments.length !== b.segments.length) return b.segments.length - a.segments.length;
  return (a.method === 'ANY' ? 1 : 0) - (b.method === 'ANY' ? 1 : 0);
}

/** The segments' values by variable name (a greedy one's joined with "/"), or undefined when the template does not match. */
export function matchSegments(
  template: readonly TemplateSegment[],
  segments: readonly string[],
  decode: (segment: string) => string = (s) => s,
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i]!;
    if (t.kind === 2) {
      const rest = segments.slice(i);
      if (rest.length === 0 || rest.join('/') === '') return undefined;
      params[t.text] = rest.map(decode).join('/');
      return params;
    }
    const value = segments[i];
    if (value === undefined || value === '') return undefined;
    if (t.kind === 0) {
      if (value !== t.text) return undefined;
    } else {
      params[t.text] = decode(value);
    }
  }
  return segments.length === template.length ? params : undefined;
}

export interface RouteTemplate {
  /** GET, POST, … or ANY. */
  method: string;
  path: string;
}

export type TemplateRouter<T extends RouteTemplate> = (
  method: string,
  segments: readonly string[],
  decode?: (segment: string) => string,
) => { route: T; params: Record<string, string> } | undefined;

/** A router over a route list, compiled once: the route API Gateway would choose for a request, with its path parameters. */
export function templateRouter<T extends RouteTemplate>(list: readonly T[], compare: typeof compareSpecificity = compareSpecificity): TemplateRouter<T> {
  const compiled = list
    .map((route) => ({ route, method: route.method, segments: parseTemplate(route.path) }))
    .sort(compare);
  return (method, segments, decode) => {
    for (const c of compiled) {
      if (c.method !== method && c.method !== 'ANY') continue;
      const params = matchSegments(c.segments, segments, decode);
      if (params) return { route: c.route, params };
    }
    return undefined;
  };
}
