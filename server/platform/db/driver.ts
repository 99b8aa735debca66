/**
 * One database interface for both drivers (PGlite and `pg`). Rows come back as `unknown`: callers
 * zod-parse what they read, so a driver difference (e.g. int8 as string) fails loudly, not silently.
 */
export interface QueryResult {
  rows: unknown[];
  rowCount: number;
}

export interface Queryable {
  query(sql: string, params?: readonly unknown[]): Promise<QueryResult>;
}

export type DriverName = 'pglite' | 'postgres';

export interface Database extends Queryable {
  readonly driver: DriverName;
  /** Runs `fn` in one transaction (BEGIN … COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
