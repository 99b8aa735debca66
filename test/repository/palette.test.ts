import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { badgeStylesheet } from '@/lib/core/badge-look';
import { PALETTE, tailwindPaletteCss, TONES } from '@/lib/core/palette';

const root = path.resolve(import.meta.dirname, '../..');

describe('one palette (issue #27 item 7)', () => {
  it('the extension’s theme colours are generated from lib/core/palette.ts (run `npx tsx scripts/palette.ts`)', () => {
    expect(readFileSync(path.join(root, 'assets/palette.css'), 'utf8')).toBe(tailwindPaletteCss());
  });

  it('the badge’s stylesheet (sent by the background) holds every tone of both schemes', () => {
    const css = badgeStylesheet();
    for (const tone of TONES) {
      expect(css).toContain(`.b[data-tone=${tone}]{color:${PALETTE.light.tones[tone].fg}`);
      expect(css).toContain(`:host([data-scheme=dark]) .b[data-tone=${tone}]{color:${PALETTE.dark.tones[tone].fg}`);
    }
  });

  it('the extension’s stylesheet takes them in', () => {
    expect(readFileSync(path.join(root, 'assets/tailwind.css'), 'utf8')).toContain("@import './palette.css';");
  });
});
