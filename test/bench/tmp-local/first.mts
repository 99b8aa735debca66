import { benchFirstCard } from '../card.ts';
for (const [name, extension] of [['this', undefined], ['e2056b2', '/tmp/wt-old/.output/chrome-mv3']] as const) {
  const result = await benchFirstCard({ launches: 6, ...(extension ? { extension } : {}) });
  console.log(name, JSON.stringify(result.rows));
}
