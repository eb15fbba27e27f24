// The ports `npm start` plans from its variables (scripts/lib/ports.mjs); the running stack is npm-start.int-spec.ts.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const portsModule = pathToFileURL(join(resolve(__dirname, '..', '..', '..'), 'scripts', 'lib', 'ports.mjs')).href;

/**
 * The value of `body` (code using the module's exports as `ports`), or `{ error: message }`. In a child
 * Node: jest's module system cannot load an ES module into a test file.
 */
function withPorts(body: string): unknown {
  const script = `import * as ports from ${JSON.stringify(portsModule)};
    const run = async () => { ${body} };
    run().then((value) => console.log(JSON.stringify(value)), (error) => console.log(JSON.stringify({ error: error.message })));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as unknown;
}

describe('npm start ports', () => {
  it('takes each port from its variable and keeps the defaults for the rest', () => {
    expect(withPorts('return ports.portsFromEnvironment({})')).toEqual({ gateway: 8080, smtp: 1025, mailboxWeb: 1080, s3: 4569 });
    expect(withPorts(`return ports.portsFromEnvironment({ PORT: '9090', MAILBOX_SMTP_PORT: '2525', MAILBOX_WEB_PORT: '', S3_PORT: '9000' })`)).toEqual({
      gateway: 9090,
      smtp: 2525,
      mailboxWeb: 1080,
      s3: 9000,
    });
  });

  it('refuses a value that is no port, naming the variable', () => {
    expect(withPorts(`return ports.portsFromEnvironment({ PORT: '80a' })`)).toEqual({ error: 'PORT must be a port number from 1 to 65527, not "80a".' });
    // The gateway's internal ports (PORT+1 … PORT+8) must fit too.
    expect(withPorts(`return ports.portsFromEnvironment({ PORT: '65530' })`)).toEqual({ error: 'PORT must be a port number from 1 to 65527, not "65530".' });
    expect(withPorts(`return ports.portsFromEnvironment({ S3_PORT: '0' })`)).toEqual({ error: 'S3_PORT must be a port number from 1 to 65535, not "0".' });
  });

  it('plans the gateway, its eight internal ports, and the mailbox and S3 only when it starts them', () => {
    const local = withPorts(`return ports.plannedPorts(ports.portsFromEnvironment({ PORT: '9090' }), {}).map(({ port }) => port)`);
    expect(local).toEqual([9090, 9091, 9092, 9093, 9094, 9095, 9096, 9097, 9098, 1025, 1080, 4569]);
    const outside = withPorts(
      `return ports.plannedPorts(ports.portsFromEnvironment({}), { SMTP_URL: 'smtp://mail.example.com', S3_ENDPOINT: 'https://s3.example.com' }).length`,
    );
    expect(outside).toBe(9);
  });

  it('names a port planned twice with both uses and the variable to change', () => {
    // The gateway's internal ports 1073 … 1080 run into the mailbox's web port.
    expect(withPorts(`await ports.assertPortsFree(ports.plannedPorts(ports.portsFromEnvironment({ PORT: '1072' }), {}))`)).toEqual({
      error: expect.stringContaining(
        'Port 1080 is planned twice (gateway internal port, PORT+8; mailbox web). Set MAILBOX_WEB_PORT to another port.',
      ) as unknown,
    });
  });
});
