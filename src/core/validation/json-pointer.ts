// JSON pointers as schema validators report them (`/plans/eval-50k/starting_balance`): the value or schema node a
// pointer names, and the dotted field name a message prints. Shared by the HTTP body checks (body-check.ts) and the
// file checks (file-check.ts).
type Json = Record<string, unknown>;

/** The pointer's parts, `~1` and `~0` unescaped (RFC 6901). */
function pointerParts(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The last part of a pointer, unescaped (the key an error is about). */
export function lastPointerPart(pointer: string): string {
  return pointerParts(pointer).at(-1) ?? '';
}

/** What `pointer` names inside `root`; undefined when the path leaves it. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointerParts(pointer)) node = (node as Json | undefined)?.[part];
  return node;
}

/** The schema node a schema path names (an empty schema when there is none). */
export function schemaAt(root: unknown, schemaPath: string): Json {
  return (valueAt(root, schemaPath) ?? {}) as Json;
}

/** `/plans/eval-50k/starting_balance` → `plans.eval-50k.starting_balance`, `/firms/0` → `firms[0]`, after `base`. */
export function pointerFieldName(pointer: string, base = ''): string {
  return pointerParts(pointer).reduce((name, part) => {
    if (/^\d+$/.test(part)) return `${name}[${part}]`;
    return name === '' ? part : `${name}.${part}`;
  }, base);
}
