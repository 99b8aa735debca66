/** Shared services, tokens and wrapper encoders for the link-recognition tests. */
import type { ServiceConfig } from '@/lib/core/services';
import { API_PATH_TEMPLATE, LOCAL_SERVICES, SHARE_PATH_TEMPLATE, spellOutAliases } from '@/lib/core/services';

export const COMPLY: ServiceConfig = {
  id: 'comply',
  name: 'Comply (production)',
  origin: 'https://comply.example',
  apiPathTemplate: API_PATH_TEMPLATE,
  sharePathTemplates: [SHARE_PATH_TEMPLATE, '/s/{token}/view'],
};

export const SERVICE: ServiceConfig = {
  id: 'service',
  name: 'Service example',
  origin: 'https://service.example',
  apiPathTemplate: API_PATH_TEMPLATE,
  sharePathTemplates: [SHARE_PATH_TEMPLATE],
};

/** As the content script gets them: the local server's alias spelt out as a service of its own. */
export const SERVICES: readonly ServiceConfig[] = spellOutAliases([COMPLY, SERVICE, ...LOCAL_SERVICES]);
export const CONFIGURED_ORIGINS: ReadonlySet<string> = new Set(SERVICES.map((s) => s.origin));

/** 43 characters, like the server's 256-bit tokens. */
export const TOKEN = 'q7Rk2_xVbN-4mZt9LpWc8sYd3HfJa6Ge1Uo5Ti0KnQe';

export const shareUrl = (origin: string, token: string = TOKEN): string => `${origin}/share/${token}`;
export const apiUrl = (origin: string, token: string = TOKEN): string => `${origin}/api/v1/compliance-status/${token}`;

const enc = encodeURIComponent;

/** Proofpoint v2 encoding: `/` becomes `_`; everything but [A-Za-z0-9.] becomes `-XX` (UTF-8). */
export function proofpointV2Encode(url: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(url)) {
    const ch = String.fromCharCode(byte);
    if (ch === '/') out += '_';
    else if (/[A-Za-z0-9.]/.test(ch)) out += ch;
    else out += `-${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Proofpoint v3 encoding: characters Proofpoint replaces (`#`, `%`, `*`, and anything non-ASCII)
 * become `*` in the URL and their bytes go, in order, to the base64url block; runs of two or more
 * replaced bytes in a row become `**X`.
 */
export function proofpointV3Encode(url: string): string {
  const bytes: number[] = [];
  let body = '';
  const chars = Array.from(url);
  let i = 0;
  while (i < chars.length) {
    let run: number[] = [];
    while (i < chars.length) {
      const ch = chars[i] ?? '';
      if (!(ch === '#' || ch === '%' || ch === '*' || ch.charCodeAt(0) > 0x7e)) break;
      run = run.concat(Array.from(new TextEncoder().encode(ch)));
      i += 1;
    }
    while (run.length > 0) {
      const take = Math.min(run.length, 65);
      if (take === 1) body += '*';
      else body += `**${'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.charAt(take - 2)}`;
      bytes.push(...run.slice(0, take));
      run = run.slice(take);
    }
    if (i < chars.length) {
      body += chars[i] ?? '';
      i += 1;
    }
  }
  const block = Buffer.from(bytes).toString('base64url');
  return `https://urldefense.com/v3/__${body}__;${block}!!OrgId!SiGnAtUrE$`;
}

export interface Wrapper {
  readonly name: string;
  readonly wrap: (url: string) => string;
}

export const WRAPPERS: readonly Wrapper[] = [
  { name: 'Gmail google.com/url?q=', wrap: (u) => `https://www.google.com/url?q=${enc(u)}&source=gmail&ust=1&usg=AOvVaw0` },
  { name: 'google.com/url?url=', wrap: (u) => `https://google.com/url?sa=t&url=${enc(u)}` },
  {
    name: 'Outlook Safe Links',
    wrap: (u) => `https://nam12.safelinks.protection.outlook.com/?url=${enc(u)}&data=05%7C02%7C&sdata=x%3D&reserved=0`,
  },
  {
    name: 'Safe Links (GCC High)',
    wrap: (u) => `https://usg02.safelinks.protection.office365.us/?url=${enc(u)}&data=04%7C01`,
  },
  {
    name: 'Outlook safelink.html',
    wrap: (u) => `https://outlook.office.com/mail/safelink.html?url=${enc(u)}&corid=31b28bee`,
  },
  { name: 'Proofpoint v1', wrap: (u) => `https://urldefense.proofpoint.com/v1/url?u=${enc(u)}&k=oIvRg1%2BdGA%3D%0A&r=x&m=y&s=z` },
  {
    name: 'Proofpoint v2',
    wrap: (u) => `https://urldefense.proofpoint.com/v2/url?u=${proofpointV2Encode(u)}&d=DwMF&c=x&r=y&m=z&s=w&e=`,
  },
  { name: 'Proofpoint v3', wrap: proofpointV3Encode },
  {
    name: 'Trend Micro click-time',
    wrap: (u) => `https://ctp.trendmicro.com/wis/clicktime/v2/clickthrough?url=${enc(u)}&uuid=2dd83146&auth=31bb`,
  },
  { name: 'Slack', wrap: (u) => `https://slack-redir.net/link?url=${enc(u)}&v=3` },
  { name: 'LinkedIn redir', wrap: (u) => `https://www.linkedin.com/redir/redirect?url=${enc(u)}&urlhash=kGKH&trk=x` },
  { name: 'LinkedIn safety', wrap: (u) => `https://www.linkedin.com/safety/go?url=${enc(u)}&trk=flagship-messaging-web` },
];

export function wrapper(name: string): Wrapper['wrap'] {
  const found = WRAPPERS.find((w) => w.name === name);
  if (found === undefined) throw new Error(`no wrapper ${name}`);
  return found.wrap;
}

/** A minimal anchor for `recognizeAnchor`: counts attribute reads; never exposes its text. */
export class FakeAnchor {
  readonly reads: string[] = [];
  constructor(
    readonly href: unknown,
    private readonly attributes: Readonly<Record<string, string>> = {},
    readonly textContent: string = '',
  ) {}
  getAttribute(name: string): string | null {
    this.reads.push(name);
    // Like an HTMLAnchorElement written with an absolute href: the attribute and the property agree.
    if (name === 'href' && !(name in this.attributes) && typeof this.href === 'string') return this.href;
    return this.attributes[name] ?? null;
  }
}
