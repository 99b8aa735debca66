/**
 * package.json `engines.node` is the Node versions this project supports (docs/toolchain.md, "Node
 * versions"): every one of them must satisfy every locked package's own `engines.node`. Two
 * packages are known exceptions, on Node 20 only, each with its reason; when a release of theirs
 * supports Node 20, this test says to drop the exception (and the README's note about it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const root = path.resolve(import.meta.dirname, '../..');
const json = (file: string): unknown => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

const supported = z.looseObject({ engines: z.object({ node: z.string() }) }).parse(json('package.json')).engines.node;
const locked = z
  .looseObject({
    packages: z.record(
      z.string(),
      // Some old packages write `engines` as an array of strings: npm ignores those, and so does this test.
      z.looseObject({ version: z.string().optional(), engines: z.unknown().optional() }),
    ),
  })
  .parse(json('package-lock.json')).packages;

const nodeRange = (engines: unknown) => z.object({ node: z.string() }).safeParse(engines).data?.node;

/** Declare Node ≥ 22 but run on Node 20 (docs/toolchain.md): the Node versions they do support. */
const EXCEPTIONS: Record<string, { version: string; supportedBeyondNode20: string; why: string }> = {
  'node_modules/wxt': {
    version: '0.21.4',
    supportedBeyondNode20: '^22.13.0 || >=24',
    why: 'builds, zips, prepares types and runs the vitest plugin on Node 20 (all of npm test)',
  },
  'node_modules/@topcli/prompts': {
    version: '4.0.0',
    supportedBeyondNode20: '^22.13.0 || >=24',
    why: 'used only by `wxt init`, which this project never runs',
  },
};

const packages = Object.entries(locked)
  .map(([location, entry]) => ({ location, version: entry.version ?? '', range: nodeRange(entry.engines) }))
  .filter(
    (entry): entry is { location: string; version: string; range: string } => entry.location !== '' && entry.range !== undefined,
  );

describe('the supported Node versions', () => {
  it('are valid, cover the LTS lines the design names (20, 22, 24) and this machine', () => {
    expect(semver.validRange(supported)).not.toBeNull();
    for (const version of ['20.19.0', '22.13.0', '24.0.0', process.versions.node]) {
      expect(semver.satisfies(version, supported), version).toBe(true);
    }
  });

  it('read the lock file', () => {
    expect(packages.length).toBeGreaterThan(100);
  });

  it('satisfy every locked package’s engines.node, but for the known exceptions', () => {
    const unmet = packages
      .filter(({ location }) => !(location in EXCEPTIONS))
      .filter(({ range }) => !semver.subset(supported, range))
      .map(({ location, version, range }) => `${location.replace(/^.*node_modules\//, '')}@${version} wants node ${range}`);
    expect(unmet).toEqual([]);
  });

  it.each(Object.entries(EXCEPTIONS))(
    '%s: still an exception, at the documented version, and fine beyond Node 20',
    (location, exception) => {
      const entry = packages.find((candidate) => candidate.location === location);
      expect(entry?.version, `${location} is locked at another version: re-check its engines and docs/toolchain.md`).toBe(
        exception.version,
      );
      const range = entry?.range ?? '';
      expect(semver.subset(supported, range), `${location} now supports all of "${supported}": drop the exception`).toBe(false);
      expect(semver.subset(exception.supportedBeyondNode20, range), exception.why).toBe(true);
    },
  );
});
