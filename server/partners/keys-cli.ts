/**
 * `npm run server -- keys …`: the operator's partner-key commands, run against the database the
 * server uses (same `--memory` / `--data DIR` / `DATABASE_URL` choice). With PGlite the data
 * directory belongs to one process at a time: stop the server first, or use the operator API.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { messageOf } from '../../lib/core/thrown';
import type { DatabaseTarget } from '../platform/db/open';
import { openDatabase } from '../platform/db/open';
import { ApiError } from '../platform/http/errors';
import { ensureSigningKeys, rotateSigningKey, type SigningKey } from '../signing/keys';
import { createPartnerKey, listPartnerKeys, revokePartnerKey, rotatePartnerKey } from './keys';
import { createPartnerKeyBody, MAX_ROTATION_GRACE_SECONDS, type PartnerKeyView } from './schemas';

export interface KeysCommandContext {
  databaseTarget(values: { memory?: boolean; data?: string }): DatabaseTarget;
  usage: string;
  print?: (line: string) => void;
  printError?: (line: string) => void;
}

const wholeNumber = (name: string, max: number) =>
  z.string().regex(/^\d+$/, `${name} must be a whole number`).transform(Number).pipe(z.int().min(0).max(max));

function describe(key: PartnerKeyView): string {
  const grace = key.previous_key_expires_at ? `, previous key valid until ${key.previous_key_expires_at}` : '';
  return `${key.id}  ${key.status}  ${key.name}  ${key.key_hint}  ${key.quota_per_minute}/min  created ${key.created_at}${grace}`;
}

function describeSigningKey(key: SigningKey): string {
  const until = key.retiredAt ? ` until ${key.retiredAt.toISOString()}` : '';
  return `${key.kid}  ${key.retiredAt ? 'retired' : 'active'}  signed from ${key.createdAt.toISOString()}${until}`;
}

/** Runs one `keys` command; returns the process exit code (0 done, 1 failed, 2 usage). */
export async function runKeysCommand(argv: readonly string[], context: KeysCommandContext): Promise<number> {
  const print = context.print ?? ((line: string) => console.log(line));
  const printError = context.printError ?? ((line: string) => console.error(line));
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        name: { type: 'string' },
        quota: { type: 'string' },
        'grace-seconds': { type: 'string' },
        memory: { type: 'boolean', default: false },
        data: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    printError(`${messageOf(error)}\n${context.usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, id, ...extra] = positionals;
  const usage = (message: string) => {
    printError(`${message}\n${context.usage}`);
    return 2;
  };
  if (extra.length > 0) return usage(`unexpected arguments: ${extra.join(' ')}`);
  if (values.memory && values.data !== undefined) return usage('use either --memory or --data, not both');

  const show = (key: PartnerKeyView & { key?: string }) => {
    if (values.json) return print(JSON.stringify(key));
    print(describe(key));
    if (key.key !== undefined) print(`key (shown once, keep it): ${key.key}`);
  };

  if (command === 'signing' && id !== 'rotate' && id !== 'list') {
    return usage(id === undefined ? 'keys signing needs rotate or list' : `unknown keys signing command: ${id}`);
  }
  if (!['create', 'list', 'rotate', 'revoke', 'signing'].includes(command ?? '')) {
    return usage(command === undefined ? 'keys needs a command' : `unknown keys command: ${command}`);
  }
  const db = await openDatabase(context.databaseTarget(values));
  const now = new Date();
  try {
    switch (command) {
      case 'create': {
        const quota = values.quota === undefined ? undefined : wholeNumber('--quota', 100_000).safeParse(values.quota);
        if (quota && !quota.success) return usage(quota.error.issues[0]?.message ?? 'bad --quota');
        const body = createPartnerKeyBody.safeParse({ name: values.name, quota_per_minute: quota?.data });
        if (!body.success) return usage(`keys create needs --name NAME (and a --quota of 1 to 100000)`);
        show(await createPartnerKey(db, now, body.data));
        return 0;
      }
      case 'list': {
        const keys = await listPartnerKeys(db, now);
        if (values.json) print(JSON.stringify(keys));
        else if (keys.length === 0) print('no partner keys');
        else keys.forEach((key) => print(describe(key)));
        return 0;
      }
      case 'rotate': {
        if (id === undefined) return usage('keys rotate needs the key id');
        const grace = wholeNumber('--grace-seconds', MAX_ROTATION_GRACE_SECONDS).safeParse(values['grace-seconds'] ?? '0');
        if (!grace.success) return usage(grace.error.issues[0]?.message ?? 'bad --grace-seconds');
        show(await rotatePartnerKey(db, now, id, grace.data));
        return 0;
      }
      case 'signing': {
        // The snapshot signing keys (server/signing): a running server on the same PostgreSQL picks a
        // rotation up within a minute; PGlite's data directory needs the server stopped anyway.
        const keys = id === 'rotate' ? await rotateSigningKey(db, now) : await ensureSigningKeys(db, now);
        if (values.json)
          print(JSON.stringify(keys.map((key) => ({ kid: key.kid, created_at: key.createdAt, retired_at: key.retiredAt }))));
        else keys.forEach((key) => print(describeSigningKey(key)));
        return 0;
      }
      case 'revoke': {
        if (id === undefined) return usage('keys revoke needs the key id');
        show(await revokePartnerKey(db, now, id));
        return 0;
      }
      default:
        return usage(command === undefined ? 'keys needs a command' : `unknown keys command: ${command}`);
    }
  } catch (error) {
    if (error instanceof ApiError) {
      printError(error.message);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}
