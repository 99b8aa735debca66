import type { Database } from './driver';
import { migrate } from './migrations';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export type DatabaseTarget =
  { kind: 'postgres'; connectionString: string; schema?: string } | { kind: 'pglite'; dataDir?: string };

/** Opens the configured database and applies pending migrations. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const db =
    target.kind === 'postgres'
      ? await openPostgres({ connectionString: target.connectionString, schema: target.schema })
      : await openPglite({ dataDir: target.dataDir });
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}
