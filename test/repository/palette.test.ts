import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { badgeChipCssModule } from '@/lib/core/badge-look';
import { tailwindPaletteCss } from '@/lib/core/palette';

const root = path.resolve(import.meta.dirname, '../..');

describe('one palette (issue #27 item 7)', () => {
  it('the extension’s theme colours are generated from lib/core/palette.ts (run `npx tsx scripts/palette.ts`)', () => {
    expect(readFileSync(path.join(root, 'assets/palette.css'), 'utf8')).toBe(tailwindPaletteCss());
  });

  it('the badge’s colours are generated from it too (run `npx tsx scripts/palette.ts`)', () => {
    expect(readFileSync(path.join(root, 'lib/content/annotator/badge-chip-css.ts'), 'utf8')).toBe(badgeChipCssModule());
  });

  it('the extension’s stylesheet takes them in', () => {
    expect(readFileSync(path.join(root, 'assets/tailwind.css'), 'utf8')).toContain("@import './palette.css';");
  });
});
