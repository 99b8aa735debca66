// Writes what is generated from lib/core/palette.ts, the one place the palette is defined (the
// server reads it directly): assets/palette.css (the extension pages' Tailwind theme colours). The
// badge's stylesheet is sent to the content script by the background (lib/core/badge-look.ts).
// Usage: npx tsx scripts/palette.ts   (test/repository/palette.test.ts fails while a file is stale)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tailwindPaletteCss } from '../lib/core/palette';

const outputs = {
  '../assets/palette.css': tailwindPaletteCss(),
};
for (const [relative, text] of Object.entries(outputs)) {
  const target = path.resolve(import.meta.dirname, relative);
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
