import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ditlEnv, loadConfig } from '@spark/config';

const root = join(__dirname, '..', '..', '..');
const deployFiles = (directory: string): string[] =>
  readdirSync(join(root, directory), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? deployFiles(join(directory, entry.name)) : entry.name.endsWith('.yaml') ? [join(directory, entry.name)] : [],
  );

describe('how many DITL jobs a process runs at once', () => {
  it('has one default, in the code, that the README states and no deployment file overrides', () => {
    const { DITL_CONCURRENCY } = loadConfig(ditlEnv, {});
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(
      new RegExp(`\\| \`OPENAI_API_KEY\`, .*\`DITL_CONCURRENCY\` \\| [^|]*, ${DITL_CONCURRENCY} \\|`),
    );
    for (const file of [...deployFiles('deploy'), 'docker-compose.yml']) {
      expect({
        file,
        overrides:
          readFileSync(join(root, file), 'utf8').includes('DITL_CONCURRENCY:') || /name: DITL_CONCURRENCY/.test(readFileSync(join(root, file), 'utf8')),
      }).toEqual({ file, overrides: false });
    }
  });
});
