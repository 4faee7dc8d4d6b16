/** A JSON value valid against a simple JSON schema: defaults, consts and enums first, then by type. */
type Schema = Record<string, unknown>;

export function fillSchema(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  const s = schema as Schema;
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) return fillSchema(alternatives[0], depth + 1);
  const type = Array.isArray(s.type) ? ((s.type as string[]).find((t) => t !== 'null') ?? 'null') : s.type;
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(properties)) out[name] = fillSchema(sub, depth + 1);
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: min }, () => fillSchema(s.items, depth + 1));
    }
    case 'string':
      return typeof s.minLength === 'number' && s.minLength > 7 ? 'x'.repeat(s.minLength) : 'example';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
