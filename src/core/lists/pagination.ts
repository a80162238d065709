/**
 * Cursor pagination (SPEC §4, DESIGN §4). A cursor is `payload.signature`: the payload names the
 * operation, a hash of the filters and the last row's sort key; the HMAC makes it tamper-proof. A
 * cursor replayed on another route or with other filters is refused, because its position means
 * nothing there. Lists use keyset pagination, so rows inserted while a client walks the pages neither
 * repeat nor push others out.
 */
import { createHmac, createSecretKey, hash, timingSafeEqual } from 'node:crypto';
import { type TObject, Type } from 'typebox';
import { AppError } from '../errors.ts';
import { canonicalJson } from '../values/canonical-json.ts';

/** Items per page when a list call names no `limit`; the one place this number is written. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

export const PaginationInput = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `Items per page (1–${MAX_LIMIT}).` }),
  ),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'The `next_cursor` of the previous page, with the same filters.' }),
  ),
};

export const Pagination = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Items matching the filters, across all pages.' }),
    limit: Type.Integer({ minimum: 1 }),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last.' }),
  },
  { additionalProperties: false },
);

/** The collection key plus the pagination block, as every list route answers. */
export function ListOutput<K extends string, T extends TObject>(key: K, item: T) {
  return Type.Object({ [key]: Type.Array(item), pagination: Pagination } as { [P in K]: ReturnType<typeof Type.Array<T>> } & {
    pagination: typeof Pagination;
  });
}

export type SortKey = (string | number | null)[];

export interface CursorCodec {
  encode(filters: unknown, key: SortKey): string;
  /** The sort key after which the page starts, or undefined for the first page. */
  decode(cursor: string | undefined, filters: unknown): SortKey | undefined;
}

export function createCursorCodec(secret: string, operation: string): CursorCodec {
  const key = createSecretKey(Buffer.from(secret));
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    encode(filters, key) {
      const payload = Buffer.from(JSON.stringify({ o: operation, f: filterHash(filters), k: key })).toString('base64url');
      return `${payload}.${sign(payload)}`;
    },
    decode(cursor, filters) {
      if (cursor === undefined) return undefined;
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined || !sameSignature(signature, sign(payload))) {
        throw AppError.invalid([{ field: 'cursor', problem: 'is not a cursor this service issued' }]);
      }
      const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o: string; f: string; k: SortKey };
      if (data.o !== operation || data.f !== filterHash(filters)) {
        throw AppError.invalid([
          { field: 'cursor', problem: 'was issued for another route or other filters; send the same filters as the first page' },
        ]);
      }
      return data.k;
    },
  };
}

/** Where a page starts: after the cursor's sort key (undefined: the first page), and how many rows. */
export interface PageRequest {
  after: SortKey | undefined;
  limit: number;
}

/** What a list query answers: up to `limit + 1` rows, the sort key of each, and the exact total. */
export interface KeysetRows<Row> {
  rows: Row[];
  keys: SortKey[];
  total: number;
}

export interface Page<Row> {
  items: Row[];
  pagination: { total: number; limit: number; has_more: boolean; next_cursor: string | null };
}

/**
 * A list operation's page: decodes the cursor (refused unless issued for this operation and these
 * filters), lets `fetch` read `limit + 1` rows after it (core/lists/keyset-page.ts), and makes the
 * pagination block with the next cursor bound to the same filters. `filters` is everything in the
 * input that shapes the list except `limit` and `cursor`, with defaults filled in.
 */
export async function paginate<Row>(
  cursors: CursorCodec,
  input: { limit?: number | undefined; cursor?: string | undefined },
  filters: unknown,
  fetch: (page: PageRequest) => Promise<KeysetRows<Row>>,
): Promise<Page<Row>> {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const after = cursors.decode(input.cursor, filters);
  const { rows, keys, total } = await fetch({ after, limit });
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  const lastKey = keys[items.length - 1];
  return {
    items,
    pagination: {
      total,
      limit,
      has_more: hasMore,
      next_cursor: hasMore && lastKey !== undefined ? cursors.encode(filters, lastKey) : null,
    },
  };
}

function filterHash(filters: unknown): string {
  return hash('sha256', canonicalJson(filters), 'base64url').slice(0, 22);
}

function sameSignature(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
