import type { Database } from '../platform/db/driver';
import type { Chores } from '../webhooks/dispatcher';
import { packDigests } from './events/digests';
import { recordExpiries } from './events/record';

/** What the outbox worker does for the partners before each delivery pass: expired follows, due digests. */
export function partnerChores(db: Database): Chores {
  return {
    expire: async (now) => (await db.transaction((tx) => recordExpiries(tx, now))).events,
    packDigests: (now) => packDigests(db, now),
  };
}
