import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { GROWTH_PROFILE } from '../../fixtures/founder';

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

/** A dev API call (`--dev` only). It wants a JSON content type (a web page cannot send one without a preflight); a failure throws. */
async function devPost(baseUrl: string, pathName: string, body: unknown): Promise<void> {
  const response = await fetch(`${baseUrl}${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${pathName} failed: ${response.status} ${await response.text()}`);
}

/** `POST /api/dev/reset`: clears the server's rate-limit state. */
export function resetRateLimits(baseUrl: string): Promise<void> {
  return devPost(baseUrl, '/api/dev/reset', {});
}

/** `POST /api/dev/clock`: moves the server's clock forward (share-link expiry follows it). */
export function advanceClock(baseUrl: string, ms: number): Promise<void> {
  return devPost(baseUrl, '/api/dev/clock', { advance_ms: ms });
}

const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** Profile fields a test may set at sign-up (the rest come from GROWTH_PROFILE). */
export type ProfileOverrides = Partial<Record<keyof typeof GROWTH_PROFILE, unknown>>;

export interface ShareLink {
  id: string;
  token: string;
  apiUrl: string;
  shareUrl: string;
}

/** The founder side of the server, through its public founder API. */
export class FounderClient {
  private constructor(
    private readonly baseUrl: string,
    readonly founderKey: string,
  ) {}

  /** A `growth` organisation with GROWTH_PROFILE, changed by `profile`. */
  static async signUp(baseUrl: string, name: string, profile: ProfileOverrides = {}): Promise<FounderClient> {
    const response = await fetch(`${baseUrl}/api/founder/organisations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, subscription_tier: 'growth', ...GROWTH_PROFILE, ...profile }),
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

  /** A DD pack, then a share link to it. */
  async createShareLink(): Promise<ShareLink> {
    await this.call('POST', '/api/founder/dd-packs', {});
    const body = envelope(
      z.object({
        share_link: z.object({ id: z.string(), token: z.string(), api_url: z.string(), share_url: z.string() }),
      }),
    ).parse(await this.call('POST', '/api/founder/share-links', {}));
    const link = body.data.share_link;
    return { id: link.id, token: link.token, apiUrl: link.api_url, shareUrl: link.share_url };
  }

  /** `PATCH /api/founder/organisation`: the founder completes tasks (scores recalculated). */
  async updateProfile(profile: ProfileOverrides): Promise<void> {
    await this.call('PATCH', '/api/founder/organisation', profile);
  }

  /** `POST /api/founder/share-links/{id}/revoke`; resolves to the response status. */
  async revoke(linkId: string): Promise<number> {
    const response = await fetch(`${this.baseUrl}/api/founder/share-links/${linkId}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.founderKey}` },
    });
    return response.status;
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

/** An organisation with one share link, and the link's view count as the founder sees it. */
export interface Deal {
  name: string;
  founder: FounderClient;
  link: ShareLink;
  /** The link's `view_count` (founder API): every fetch the extension makes of it counts one. */
  views(): Promise<number>;
}

/** Signs `name` up (GROWTH_PROFILE changed by `profile`) and creates one share link. */
export async function createDeal(baseUrl: string, name: string, profile: ProfileOverrides = {}): Promise<Deal> {
  const founder = await FounderClient.signUp(baseUrl, name, profile);
  const link = await founder.createShareLink();
  return { name, founder, link, views: () => founder.viewCount(link.id) };
}

/** One deal per name, created in parallel. */
export function createDeals(baseUrl: string, names: readonly string[]): Promise<Deal[]> {
  return Promise.all(names.map((name) => createDeal(baseUrl, name)));
}
