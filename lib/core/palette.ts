import type { GapSeverity, ReadinessLabel, RiskBand } from './labels';
import type { SnapshotErrorCode } from './result-codes';

/**
 * One palette for the extension and the `/share` page: the tone each label, band and severity takes,
 * and the colours of each tone and of the brand, light and dark (the dark ones chosen for a dark
 * background, not inverted). The server writes them into its stylesheet (`paletteCssVariables`);
 * the extension's Tailwind theme is generated from them (`assets/palette.css`, `scripts/palette.ts`).
 */

export const TONES = ['red', 'orange', 'amber', 'blue', 'green', 'neutral'] as const;
export type Tone = (typeof TONES)[number];

export const READINESS_TONE: Readonly<Record<ReadinessLabel, Tone>> = {
  Critical: 'red',
  'In Progress': 'amber',
  'Good Standing': 'blue',
  'Regulator Ready': 'green',
};

export const RISK_BAND_TONE: Readonly<Record<RiskBand, Tone>> = {
  high: 'red',
  medium: 'amber',
  low: 'blue',
  investor_ready: 'green',
};

export const SEVERITY_TONE: Readonly<Record<GapSeverity, Tone>> = {
  critical: 'red',
  high: 'orange',
  medium: 'amber',
};

/**
 * The tone of a failed link: a link the founder withdrew is a signal to an investor (red); one that
 * may work on the next try is a passing problem (amber, orange when the service sent bad data); an
 * expired, unknown or unconfigured link is neither (neutral).
 */
export const ERROR_TONE: Readonly<Record<SnapshotErrorCode | 'WITHDRAWN', Tone>> = {
  WITHDRAWN: 'red',
  NOT_FOUND: 'neutral',
  EXPIRED: 'neutral',
  FORBIDDEN_ORIGIN: 'neutral',
  RATE_LIMITED: 'amber',
  NETWORK: 'amber',
  TIMEOUT: 'amber',
  INVALID_RESPONSE: 'orange',
};

/** The checklist's completion bar: neutral until every item is done (22 % is not good news). */
export function checklistTone(pct: number): Tone {
  return pct >= 100 ? 'green' : 'neutral';
}

/** A tone's colours: a tinted background, the text on it, a border, and a solid fill (bars, dots). */
export interface Swatch {
  bg: string;
  fg: string;
  border: string;
  solid: string;
}

/** The brand: its mark, links and focus rings (accent), and the primary button with its text. */
export interface BrandColours {
  mark: string;
  onMark: string;
  accent: string;
  primary: string;
  primaryHover: string;
  onPrimary: string;
}

export interface Scheme {
  tones: Readonly<Record<Tone, Swatch>>;
  brand: BrandColours;
}

export const PALETTE: Readonly<Record<'light' | 'dark', Scheme>> = {
  light: {
    tones: {
      red: { bg: '#fdecec', fg: '#9b1c1c', border: '#f3b4b4', solid: '#c42b2b' },
      orange: { bg: '#fff0e3', fg: '#9a3c06', border: '#f7c49a', solid: '#c2560c' },
      amber: { bg: '#fff6db', fg: '#7a4d00', border: '#efd27a', solid: '#b7791f' },
      blue: { bg: '#e6f4f7', fg: '#0b5563', border: '#9fd3dd', solid: '#0e7c8f' },
      green: { bg: '#e7f6ec', fg: '#14632f', border: '#a6dbb6', solid: '#1f8a44' },
      neutral: { bg: '#eef1f5', fg: '#334155', border: '#cfd7e1', solid: '#64748b' },
    },
    brand: {
      mark: '#0b5cad',
      onMark: '#ffffff',
      accent: '#0b5cad',
      primary: '#0b5cad',
      primaryHover: '#094a8c',
      onPrimary: '#ffffff',
    },
  },
  dark: {
    tones: {
      red: { bg: '#3a1414', fg: '#ffb3b3', border: '#7a2a2a', solid: '#f26b6b' },
      orange: { bg: '#3a2010', fg: '#ffc69a', border: '#7a4520', solid: '#f0904a' },
      amber: { bg: '#33280c', fg: '#f5d27a', border: '#6e5518', solid: '#e0b040' },
      blue: { bg: '#0e2c33', fg: '#8fdbe8', border: '#1f5a66', solid: '#3fb8cc' },
      green: { bg: '#0f2e1a', fg: '#8fe0a8', border: '#1f5e34', solid: '#4cc474' },
      neutral: { bg: '#222b36', fg: '#c7d1dc', border: '#3a4655', solid: '#8a99ab' },
    },
    // A muted blue with white text: the light scheme's blue, not a bright cyan, on a dark page.
    brand: {
      mark: '#2a6db5',
      onMark: '#ffffff',
      accent: '#6cb6ff',
      primary: '#2a6db5',
      primaryHover: '#3579c2',
      onPrimary: '#ffffff',
    },
  },
};

const SWATCH_PARTS = ['bg', 'fg', 'border', 'solid'] as const;

/** `--red-bg: #fdecec; …` and `--accent: …`: the custom properties of one scheme, for the server's stylesheet. */
export function paletteCssVariables(scheme: Scheme): string {
  const tones = TONES.flatMap((tone) => SWATCH_PARTS.map((part) => `--${tone}-${part}: ${scheme.tones[tone][part]};`));
  const { brand } = scheme;
  return [
    ...tones,
    `--brand: ${brand.mark};`,
    `--on-brand: ${brand.onMark};`,
    `--accent: ${brand.accent};`,
    `--primary: ${brand.primary};`,
    `--primary-hover: ${brand.primaryHover};`,
    `--on-primary: ${brand.onPrimary};`,
  ].join(' ');
}

/** The same colours as Tailwind theme variables (`--color-tone-red-bg`, `--color-primary`), light then dark. */
export function tailwindPaletteCss(): string {
  const variables = (scheme: Scheme) => [
    ...TONES.flatMap((tone) => SWATCH_PARTS.map((part) => `  --color-tone-${tone}-${part}: ${scheme.tones[tone][part]};`)),
    `  --color-brand: ${scheme.brand.mark};`,
    `  --color-on-brand: ${scheme.brand.onMark};`,
    `  --color-accent: ${scheme.brand.accent};`,
    `  --color-primary: ${scheme.brand.primary};`,
    `  --color-primary-hover: ${scheme.brand.primaryHover};`,
    `  --color-on-primary: ${scheme.brand.onPrimary};`,
  ];
  return [
    '/* Generated from lib/core/palette.ts by scripts/palette.ts: do not edit (test/repository/palette.test.ts checks). */',
    '@theme {',
    ...variables(PALETTE.light),
    '}',
    '@media (prefers-color-scheme: dark) {',
    '  :root {',
    ...variables(PALETTE.dark).map((line) => `  ${line}`),
    '  }',
    '}',
    '',
  ].join('\n');
}
