import pg from 'pg';
import type { Database, Queryable, QueryResult } from './driver';

export interface PostgresOptions {
  connectionString: string;
  /** Schema to use via `search_path` (tests isolate each file in its own schema). */
  schema?: string;
  max?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function toResult(result: pg.QueryResult): QueryResult {
  return { rows: result.rows as unknown[], rowCount: result.rowCount ?? result.rows.length };
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new Error(`invalid schema name: ${options.schema}`);
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    // search_path as a startup parameter, so every pooled connection uses the schema.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', (error) => console.error('postgres pool error:', error.message));
  await pool.query('SELECT 1');

  const query: Queryable['query'] = async (sql, params = []) => toResult(await pool.query(sql, [...params]));
  return {
    driver: 'postgres',
    query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Queryable = { query: async (sql, params = []) => toResult(await client.query(sql, [...params])) };
        const value = await fn(tx);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
