// `npm run build:node && node dist/bench/post-text.js`: how long a Developer's Log post's title and excerpt take to
// read, for ordinary prose and for texts written to make a backtracking pattern slow, each at the longest a post may
// be. The excerpt is read for every post on each public list and read of the log.
import { POST_MARKDOWN_MAX_LENGTH, postTitleOf, wikiImageNames } from '@spark/contracts';
import { excerptOf } from '../apps/content-service/src/tooling';

const fill = (unit: string, prefix = '') => prefix + unit.repeat(Math.floor((POST_MARKDOWN_MAX_LENGTH - prefix.length) / unit.length));

const texts: Record<string, string> = {
  prose: fill('Twelve clients kept their streaks through the holidays, and the morning check-ins did most of the work. ', '# Week 3\n'),
  'unclosed <': fill('<'),
  'unclosed [': fill('['),
  'unclosed ![': fill('!['),
  'unclosed ![[': fill('![['),
  'links with an unclosed target': fill('[a]('),
  'a heading of # #': fill(' #', '# T') + 'x',
  'a rule of - that ends in a word': fill('-') + 'x',
  'bullets of spaces': fill(' \t', ' ') + '-x',
};
const readers: Record<string, (markdown: string) => unknown> = { title: postTitleOf, excerpt: excerptOf, 'image names': wikiImageNames };

for (const [textName, markdown] of Object.entries(texts)) {
  const figures = Object.entries(readers).map(([readerName, read]) => {
    read(markdown);
    const started = performance.now();
    read(markdown);
    return `${readerName} ${(performance.now() - started).toFixed(1)} ms`;
  });
  console.log(`${textName} (${markdown.length} characters): ${figures.join(', ')}`);
}
