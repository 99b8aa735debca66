import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** Screenshots the e2e specs leave for people to look at (git-ignored): `test/artifacts/`. */
const artifactsDir = path.resolve(import.meta.dirname, '../../artifacts');

/** Where to write the artifact `name` (the folder is created on first use). */
export function artifactPath(name: string): string {
  mkdirSync(artifactsDir, { recursive: true });
  return path.join(artifactsDir, name);
}
