/** Every leaf key of a strings file as a dotted path ('filters.clear'), to compare English and Spanish in tests. */
export function keyPaths(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}
