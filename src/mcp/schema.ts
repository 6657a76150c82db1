/**
 * An MCP tool's input schema as both providers take it (ARCHITECTURE.md §16). The server's JSON
 * Schema is passed through, with what a provider refuses adjusted:
 * - OpenAI: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the
 *   top level" — such a schema is refused for the whole request.
 * - Anthropic: `input_schema` must be `type: "object"`.
 * So the top level is always an object; top-level combinators are folded into one object (their
 * properties merged, nothing required that only one branch requires) and `$schema`/`$id` (which
 * some validators reject) dropped. Nested schemas are left as the server wrote them.
 */
type Json = Record<string, unknown>;

const COMBINATORS = ['oneOf', 'anyOf', 'allOf'] as const;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function providerSchema(input: unknown): Json {
  const source: Json = isObject(input) ? input : {};
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === '$schema' || key === '$id' || key === 'enum' || key === 'not' || key === 'const' || (COMBINATORS as readonly string[]).includes(key)) continue;
    out[key] = value;
  }
  out.type = 'object';
  const properties: Json = isObject(source.properties) ? { ...source.properties } : {};
  let required = Array.isArray(source.required) ? source.required.filter((r): r is string => typeof r === 'string') : [];
  for (const key of COMBINATORS) {
    const branches = Array.isArray(source[key]) ? source[key].filter(isObject) : [];
    const branchRequired: string[][] = [];
    for (const branch of branches) {
      if (isObject(branch.properties)) for (const [name, schema] of Object.entries(branch.properties)) if (!(name in properties)) properties[name] = schema;
      branchRequired.push(Array.isArray(branch.required) ? branch.required.filter((r): r is string => typeof r === 'string') : []);
    }
    // allOf: every branch's required holds; oneOf/anyOf: only what every branch requires.
    if (key === 'allOf') required = [...new Set([...required, ...branchRequired.flat()])];
    else if (branchRequired.length) required = [...new Set([...required, ...branchRequired.reduce((a, b) => a.filter((x) => b.includes(x)))])];
  }
  out.properties = properties;
  if (required.length) out.required = required;
  else delete out.required;
  return out;
}
