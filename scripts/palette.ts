// Writes assets/palette.css (the extension's Tailwind theme colours) from lib/core/palette.ts, the
// one place the palette is defined; the server reads lib/core/palette.ts directly.
// Usage: npx tsx scripts/palette.ts   (test/repository/palette.test.ts fails while the file is stale)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tailwindPaletteCss } from '../lib/core/palette';

const target = path.resolve(import.meta.dirname, '../assets/palette.css');
writeFileSync(target, tailwindPaletteCss());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
