// Writes what is generated from lib/core/palette.ts, the one place the palette is defined (the
// server reads it directly): assets/palette.css (the extension pages' Tailwind theme colours) and
// lib/content/annotator/badge-chip-css.ts (the badge's stylesheet as a string: the content script
// carries the colours it uses, not the palette's code, within its size budget).
// Usage: npx tsx scripts/palette.ts   (test/repository/palette.test.ts fails while a file is stale)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { badgeChipCssModule } from '../lib/core/badge-look';
import { tailwindPaletteCss } from '../lib/core/palette';

const outputs = {
  '../assets/palette.css': tailwindPaletteCss(),
  '../lib/content/annotator/badge-chip-css.ts': badgeChipCssModule(),
};
for (const [relative, text] of Object.entries(outputs)) {
  const target = path.resolve(import.meta.dirname, relative);
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
