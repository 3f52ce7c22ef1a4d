/**
 * How values come back from PostgreSQL: BIGINT (epoch ms, ids, counts) as numbers, refused when
 * beyond what a number holds exactly (2^53), rather than the strings node-postgres gives by default.
 */
import pg from 'pg';

const INT8 = 20;

export function parseBigint(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`a BIGINT the reaper cannot hold exactly (${text}, beyond 2^53)`);
  }
  return n;
}

/** The `types` of a pool: BIGINT parsed by parseBigint, every other type as node-postgres does. */
export const REAPER_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 && format !== 'binary') return parseBigint;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;
