import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';

/** A bundled server started for one test file: `npm run server -- --port 0 --memory --dev`. */
export interface TestServer {
  baseUrl: string;
  stop(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export async function startTestServer(extraArgs: string[] = []): Promise<TestServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'server/cli.ts'), '--port', '0', '--memory', '--dev', ...extraArgs],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' } },
  );
  const baseUrl = await waitForListening(child);
  return {
    baseUrl,
    stop: () => stopChild(child),
  };
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not print "listening on" within 60 s. Output:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening. Output:\n${output}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(killTimer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * `POST /api/dev/reset`: clears the server's rate-limit state. The dev API wants a JSON content type
 * (a web page cannot send one without a preflight), so the body is `{}`; a failure throws.
 */
export async function resetRateLimits(baseUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/dev/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) throw new Error(`dev reset failed: ${response.status} ${await response.text()}`);
}

const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** The founder side of the server, through its public founder API. */
export class FounderClient {
  private constructor(
    private readonly baseUrl: string,
    readonly founderKey: string,
  ) {}

  static async signUp(baseUrl: string, name: string): Promise<FounderClient> {
    const response = await fetch(`${baseUrl}/api/founder/organisations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        subscription_tier: 'growth',
        readiness_score: 76,
        fundraise_score: 68,
        checklist_complete: 31,
        checklist_total: 40,
        product_classification: 'PAYMENT',
        primary_regulator: 'CBN',
        secondary_regulators: ['SEC_NIGERIA'],
        arip_stage: 'formal_application',
        gaps: [
          {
            title: 'AML/CFT programme not yet board-approved',
            severity: 'high',
            regulatory_basis: 'CBN AML/CFT Regulations 2022',
          },
        ],
      }),
    });
    const body = envelope(z.object({ founder_key: z.string() })).parse(await response.json());
    return new FounderClient(baseUrl, body.data.founder_key);
  }

  private async call(method: string, pathName: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}${pathName}`, {
      method,
      headers: { authorization: `Bearer ${this.founderKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${pathName} → ${response.status}: ${await response.text()}`);
    return response.json();
  }

  async createShareLink(): Promise<{ id: string; token: string; apiUrl: string; shareUrl: string }> {
    await this.call('POST', '/api/founder/dd-packs', {});
    const body = envelope(
      z.object({
        share_link: z.object({ id: z.string(), token: z.string(), api_url: z.string(), share_url: z.string() }),
      }),
    ).parse(await this.call('POST', '/api/founder/share-links', {}));
    const link = body.data.share_link;
    return { id: link.id, token: link.token, apiUrl: link.api_url, shareUrl: link.share_url };
  }

  async viewCount(linkId: string): Promise<number> {
    const body = envelope(z.object({ share_links: z.array(z.object({ id: z.string(), view_count: z.number() })) })).parse(
      await this.call('GET', '/api/founder/share-links'),
    );
    const link = body.data.share_links.find((l) => l.id === linkId);
    if (!link) throw new Error(`share link ${linkId} not listed`);
    return link.view_count;
  }
}
