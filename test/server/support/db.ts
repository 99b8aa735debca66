/**
 * One database per test file: in-memory PGlite, or, when TEST_DATABASE_URL is set, a fresh schema
 * `test_<random>` on that PostgreSQL server (search_path set per connection), dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../../server/platform/db/driver';
import { openDatabase } from '../../../server/platform/db/open';

export interface TestDatabase {
  db: Database;
  /**
   * Another server instance's own connection pool to the same database (PostgreSQL: the same schema);
   * PGlite lives in one process, so there it is the same database.
   */
  openAnother(): Promise<Database>;
  close(): Promise<void>;
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export async function openTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const db = await openDatabase({ kind: 'pglite' });
    return { db, openAnother: async () => db, close: () => db.close() };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const db = await openDatabase({ kind: 'postgres', connectionString: TEST_DATABASE_URL, schema });
  return {
    db,
    openAnother: () => openDatabase({ kind: 'postgres', connectionString: TEST_DATABASE_URL, schema }),
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
