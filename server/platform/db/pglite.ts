import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './driver';

type PgliteLike = Pick<PGlite, 'query'>;

function wrap(target: PgliteLike): Queryable {
  return {
    async query(sql, params = []): Promise<QueryResult> {
      const result = await target.query<unknown>(sql, [...params]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/** Embedded PostgreSQL. `dataDir` undefined = in memory (initdb takes ~3 s, so open one per process). */
export async function openPglite(options: { dataDir?: string } = {}): Promise<Database> {
  const pg = options.dataDir ? await PGlite.create(options.dataDir) : await PGlite.create();
  const base = wrap(pg);
  return {
    driver: 'pglite',
    query: (sql, params) => base.query(sql, params),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
