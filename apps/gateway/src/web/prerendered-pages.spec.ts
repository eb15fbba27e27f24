import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRERENDER_ORIGIN_PLACEHOLDER } from '@spark/contracts';
import { PrerenderedPages } from './prerendered-pages';

describe('PrerenderedPages', () => {
  let webDist: string;
  let pages: PrerenderedPages;

  beforeAll(() => {
    webDist = mkdtempSync(join(tmpdir(), 'spark-prerendered-'));
    const folder = join(webDist, 'prerendered');
    mkdirSync(folder);
    const files = { '/': 'home.html', '/donate': 'donate.html', '/donate?early-access': 'donate-early-access.html' };
    writeFileSync(join(folder, 'pages.json'), JSON.stringify(files));
    for (const [path, file] of Object.entries(files)) writeFileSync(join(folder, file), `<link href="${PRERENDER_ORIGIN_PLACEHOLDER}${path}">`);
    pages = PrerenderedPages.load(webDist, 'https://spark.example/');
  });
  afterAll(() => rmSync(webDist, { recursive: true, force: true }));

  const served = (url: string) => pages.find(url, 'identity')?.toString('utf8');

  it('serves a page for its path, with or without a trailing slash, and this deployment origin in it', () => {
    expect(served('/')).toBe('<link href="https://spark.example/">');
    expect(served('/donate/')).toBe('<link href="https://spark.example/donate">');
    expect(served('/signin')).toBeUndefined();
  });

  it('serves the variant a search parameter names, and ignores parameters without one', () => {
    expect(served('/donate?early-access')).toBe('<link href="https://spark.example/donate?early-access">');
    expect(served('/donate?utm_source=mail&early-access=1')).toBe('<link href="https://spark.example/donate?early-access">');
    expect(served('/donate?utm_source=mail')).toBe('<link href="https://spark.example/donate">');
    expect(served('/?early-access')).toBe('<link href="https://spark.example/">');
  });
});
