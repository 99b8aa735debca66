/**
 * Processes the tests start as a user would (`server/cli.ts`, the webhook receiver, `npm start`): each
 * runs in the repository root, is awaited until it prints that it is ready, and is stopped when its
 * test ends (SIGTERM, then SIGKILL after 5 s).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** `process.env` without DATABASE_URL and OPERATOR_SECRET (with `extra` on top): a run that is the same on every machine. */
export function hermeticEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.DATABASE_URL;
  delete env.OPERATOR_SECRET;
  return env;
}

/** Stops `child` (SIGTERM, SIGKILL after 5 s) and resolves with its exit code. */
export function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', (code) => {
      clearTimeout(killTimer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

/** Spawns `command args` in the repository root; it is stopped when the running test ends. */
export function spawnForTest(command: string, args: string[], env: NodeJS.ProcessEnv = hermeticEnv()): ChildProcess {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(async () => {
    await stopProcess(child);
  });
  return child;
}

export interface Started {
  child: ChildProcess;
  match: RegExpExecArray;
  /** Everything it has printed so far (stdout and stderr). */
  output: () => string;
}

/**
 * `spawnForTest`, resolved once what the process prints (stdout and stderr) matches `ready`; rejected
 * with everything it printed if it exits first.
 */
export function startUntil(command: string, args: string[], ready: RegExp, env?: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawnForTest(command, args, env);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, match, output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

/** `node --import tsx SCRIPT args` (a repository script, as `npm run` starts it) until it prints `ready`. */
export function startScript(script: string, args: string[], ready: RegExp, env?: NodeJS.ProcessEnv): Promise<Started> {
  return startUntil(process.execPath, ['--import', 'tsx', path.join(repoRoot, script), ...args], ready, env);
}
