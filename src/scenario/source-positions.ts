// Where a field path (`steps[4].order.side`, `market.files[0].path`) sits in the YAML or JSON text it was
// decoded from, so a validation error can name the line. Validation itself works on plain decoded values;
// this maps its paths back onto the parsed document afterwards.
import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export interface SourcePosition {
  /** 1-based. */
  line: number;
  column: number;
}

/**
 * The position of the deepest node along `path`: the value itself when it is present, else the mapping that
 * lacks it (a missing required key). Mapping keys may contain dots (grid axes like `risk_profile.x`), so the
 * longest key that fits is taken. Undefined when not even the first step of the path is in the document.
 */
export function positionOfPath(doc: Document, lineCounter: LineCounter, path: string): SourcePosition | undefined {
  let node: Node | null | undefined = doc.contents;
  let rest = path;
  let steps = 0;
  while (rest !== '' && node) {
    const next = stepInto(node, rest);
    if (!next) break;
    node = next.node;
    rest = next.rest.replace(/^\./, '');
    steps++;
  }
  const offset = node?.range?.[0];
  if (steps === 0 || offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function stepInto(node: Node, rest: string): { node: Node | null; rest: string } | undefined {
  const index = /^\[(\d+)\]/.exec(rest);
  if (index) {
    if (!isSeq(node)) return undefined;
    const item = node.items[Number(index[1])];
    return item ? { node: item as Node, rest: rest.slice(index[0].length) } : undefined;
  }
  if (!isMap(node)) return undefined;
  let best: { key: string; node: Node | null } | undefined;
  for (const pair of node.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const fits = rest === key || rest.startsWith(`${key}.`) || rest.startsWith(`${key}[`);
    if (fits && (!best || key.length > best.key.length))
      best = { key, node: valueOrKey(pair.value as Node | null, pair.key) };
  }
  return best && { node: best.node, rest: rest.slice(best.key.length) };
}

/** A key written with nothing after it (`at:`) has an empty value node at the line's end: point at the key. */
function valueOrKey(value: Node | null, key: Node): Node {
  const empty = value === null || (isScalar(value) && value.value === null && value.range?.[0] === value.range?.[1]);
  return empty ? key : value;
}
