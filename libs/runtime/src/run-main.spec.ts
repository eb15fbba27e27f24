import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

describe('onShutdown', () => {
  it('exits 1 once the drain outlasts its budget, naming the step it waited on', async () => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, '__fixtures__/endless-drain.ts')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    await once(child.stdout, 'data');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];

    expect({ code, stderr }).toEqual({ code: 1, stderr: 'the drain after SIGTERM outlasted its 1 s, waiting on the step that never ends\n' });
  }, 20_000);
});
