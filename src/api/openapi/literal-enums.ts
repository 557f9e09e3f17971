// A TypeBox union of literals (`Type.Union([Type.Literal('buy'), Type.Literal('sell')])`) comes out of
// @fastify/swagger as `anyOf` of one-value enums; the document says it as one `enum`, which is what client
// generators and readers expect of a closed set of words (docs/api.md#the-openapi-document). Both accept the same
// values.

type Json = Record<string, unknown>;

export function collapseLiteralUnions<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => collapseLiteralUnions(item)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const node = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, collapseLiteralUnions(v)])) as Json;
  const literals = literalsOf(node.anyOf);
  if (!literals) return node as T;
  const { anyOf: _members, ...rest } = node;
  return { type: literals.type, enum: literals.values, ...rest } as T;
}

/** The members' common type and values when every member is `{type, enum: [one value]}` and nothing else. */
function literalsOf(members: unknown): { type: unknown; values: unknown[] } | undefined {
  if (!Array.isArray(members) || members.length === 0) return undefined;
  const type = (members[0] as Json).type;
  const values: unknown[] = [];
  for (const member of members as Json[]) {
    const keys = Object.keys(member);
    const single = Array.isArray(member.enum) && member.enum.length === 1;
    if (!single || member.type !== type || keys.length !== 2 || !keys.includes('type')) return undefined;
    values.push((member.enum as unknown[])[0]);
  }
  return { type, values };
}
