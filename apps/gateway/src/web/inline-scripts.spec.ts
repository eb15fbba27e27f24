import { createHash } from 'node:crypto';
import { inlineScriptHashes } from './inline-scripts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes the exact text of each inline script, whatever its attributes', () => {
    const html = `<script>a()</script><script type="module">\n  b();\n</script><SCRIPT nonce="x">c()</SCRIPT>`;
    expect(inlineScriptHashes(html)).toEqual([sha256('a()'), sha256('\n  b();\n'), sha256('c()')]);
  });

  it('skips scripts loaded from a file', () => {
    expect(inlineScriptHashes('<script type="module" crossorigin src="/assets/index.js"></script><style>p{}</style>')).toEqual([]);
  });
});
