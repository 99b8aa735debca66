/**
 * `npm run verify -- FILE [--jwks FILE_OR_URL]`: checks a verifiable copy of a signed snapshot answer
 * (issue #36) offline, and prints one line: exit 0 when it verifies, 1 otherwise. With `--jwks` (the
 * service's key set, a file or an http(s) URL) it proves who signed; without, only that the copy is
 * unchanged since it was saved with the key inside it. The checks are lib/core/signing's; this file
 * reads files and prints.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseJwks, parseVerifiableCopy, type Jwks } from '../lib/core/schemas/signing';
import { verifyCopy } from '../lib/core/signing/copy';
import { JWKS_PATH } from '../lib/core/signing/wire';

export const USAGE = 'usage: npm run verify -- FILE [--jwks FILE_OR_URL]';
/** Larger than any snapshot answer or key set by far; a larger file is not one. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

export interface VerifyIo {
  print(line: string): void;
  /** Where relative paths are resolved (npm runs scripts from the package root; INIT_CWD is where it was called). */
  cwd: string;
  fetch: typeof fetch;
}

const defaultIo: VerifyIo = {
  print: (line) => console.log(line),
  cwd: process.env.INIT_CWD ?? process.cwd(),
  fetch: (input, init) => fetch(input, init),
};

type Args = { file: string; jwks: string | undefined } | { error: string };

function parseArgs(argv: readonly string[]): Args {
  let file: string | undefined;
  let jwks: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--jwks') {
      jwks = argv[i + 1];
      i += 1;
      if (jwks === undefined || jwks === '') return { error: '--jwks needs a file or an http(s) URL' };
    } else if (arg.startsWith('--jwks=')) {
      jwks = arg.slice('--jwks='.length);
    } else if (arg.startsWith('-')) {
      return { error: `unknown option ${arg}` };
    } else if (file === undefined) {
      file = arg;
    } else {
      return { error: `one file at a time (${file}, then ${arg})` };
    }
  }
  return file === undefined ? { error: 'which file?' } : { file, jwks };
}

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
};

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return (code && ERRNO_TEXT[code]) ?? error.message;
}

async function readText(file: string, io: VerifyIo): Promise<string> {
  const where = path.resolve(io.cwd, file);
  if ((await stat(where)).size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES} bytes`);
  return readFile(where, 'utf8');
}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** The key set's source as given; a service's address alone names its key set, where every service publishes it. */
function keySetSource(source: string): string {
  if (!isUrl(source)) return source;
  try {
    const url = new URL(source);
    return url.pathname === '/' && url.search === '' ? `${url.origin}${JWKS_PATH}` : source;
  } catch {
    return source;
  }
}

/** The key set at `source`, or why it could not be read. */
async function readJwks(source: string, origin: string, io: VerifyIo): Promise<Jwks | string> {
  let text: string;
  if (isUrl(source)) {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      return `${source} is not a URL`;
    }
    // The line will say "signed by key … of <origin>": that holds only for the origin's own key set.
    if (url.origin !== origin) return `the key set ${source} is not at the copy's origin ${origin}`;
    try {
      const response = await io.fetch(url, {
        headers: { accept: 'application/jwk-set+json, application/json' },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (response.status !== 200) return `cannot fetch the key set ${source}: HTTP ${response.status}`;
      text = await response.text();
    } catch (error) {
      return `cannot fetch the key set ${source}: ${errorText(error)}`;
    }
  } else {
    try {
      text = await readText(source, io);
    } catch (error) {
      return `cannot read the key set ${source}: ${errorText(error)}`;
    }
  }
  const parsed = parseJwks(text);
  return parsed.ok ? parsed.value : `the key set ${source}: ${parsed.message}`;
}

/** Runs the command on `argv` (the arguments after the script); returns the exit code. */
export async function main(argv: readonly string[], io: VerifyIo = defaultIo): Promise<number> {
  const args = parseArgs(argv);
  if ('error' in args) {
    io.print(`not verified: ${args.error} (${USAGE})`);
    return 1;
  }
  let text: string;
  try {
    text = await readText(args.file, io);
  } catch (error) {
    io.print(`not verified: cannot read ${args.file}: ${errorText(error)}`);
    return 1;
  }
  const parsed = parseVerifiableCopy(text);
  if (!parsed.ok) {
    io.print(`not verified: ${args.file}: ${parsed.message}`);
    return 1;
  }
  const copy = parsed.value;

  let jwks: Jwks | undefined;
  if (args.jwks !== undefined) {
    args.jwks = keySetSource(args.jwks);
    const read = await readJwks(args.jwks, copy.origin, io);
    if (typeof read === 'string') {
      io.print(`not verified: ${read}`);
      return 1;
    }
    jwks = read;
  }
  const { check, verdict } = await verifyCopy(copy, jwks);
  const against = check === 'key-set' ? `the key set ${args.jwks}` : 'the key inside the file';
  if (verdict.state === 'unsigned') {
    io.print(`not verified against ${against}: ${verdict.message}`);
    return 1;
  }
  if (verdict.state === 'invalid') {
    io.print(`not verified against ${against}: ${verdict.message} [${verdict.reason}]`);
    return 1;
  }
  const at = verdict.signedAt.toISOString();
  io.print(
    check === 'key-set'
      ? `verified: signed by key ${verdict.kid} of ${copy.origin} at ${at}, checked against the key set ${args.jwks}`
      : `unchanged since saved: the signature matches key ${verdict.kid} inside the file (signed at ${at}, for ${copy.origin}); ` +
          `this does not prove who signed it: add --jwks ${copy.origin}${JWKS_PATH} to check against the service's key set`,
  );
  return 0;
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  process.exitCode = await main(process.argv.slice(2));
}
