// Cursor paging of the kernel's lists (docs/api.md#lists-and-pagination). Every list keeps its records in creation
// order, which is also time order for everything the API creates (the clock never goes back), so a page starts
// after the creation number of the last record the previous page returned: records created between two pages
// land after it, so paging never repeats or skips one. The cursor is opaque to clients and names its list, so a
// cursor of one list is refused by another (400 `invalid_cursor`).
import { CommandRefusal } from '../../outcome.js';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 500;

export interface PageRequest {
  /** 1–500, default 100. */
  limit?: number | undefined;
  /** The `next_cursor` of the previous page. */
  cursor?: string | undefined;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** A list's records: in creation order, each with its creation number (increasing). */
export interface PagedList<R> {
  /** The list's name, written into its cursors. */
  name: string;
  records: readonly R[];
  seqOf(record: R): number;
}

export function pageOf<R, J>(
  list: PagedList<R>,
  page: PageRequest,
  matches: (record: R) => boolean,
  json: (record: R) => J,
): Page<J> {
  const limit = page.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw new CommandRefusal(
      400,
      'invalid_request',
      `limit: expected an integer from 1 to ${MAX_PAGE_LIMIT}, got ${limit}`,
      [{ field: 'limit', message: `expected an integer from 1 to ${MAX_PAGE_LIMIT}, got ${limit}` }],
    );
  const after = page.cursor === undefined ? 0 : decodeCursor(list.name, page.cursor);
  const { records, seqOf } = list;
  const items: J[] = [];
  let last: R | undefined;
  for (let i = firstAfter(list, after); i < records.length; i++) {
    const record = records[i]!;
    if (!matches(record)) continue;
    if (items.length === limit) return { items, next_cursor: encodeCursor(list.name, seqOf(last!)) };
    items.push(json(record));
    last = record;
  }
  return { items, next_cursor: null };
}

/** Index of the first record created after creation number `after` (binary search: records are in order). */
function firstAfter<R>(list: PagedList<R>, after: number): number {
  let lo = 0;
  let hi = list.records.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list.seqOf(list.records[mid]!) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function encodeCursor(name: string, seq: number): string {
  return btoa(`${name}:${seq}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(name: string, cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? base64UrlText(cursor) : '';
  const match = /^([a-z_]+):(\d{1,15})$/.exec(text);
  if (!match || match[1] !== name)
    throw new CommandRefusal(
      400,
      'invalid_cursor',
      `cursor: not a cursor of this list; send back the next_cursor a page of ${name} answered`,
    );
  return Number(match[2]);
}

/** The text of a base64url string, or '' when it does not decode. */
function base64UrlText(encoded: string): string {
  try {
    return atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return '';
  }
}
