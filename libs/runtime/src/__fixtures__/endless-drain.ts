// A process whose stop never finishes its second step, with a drain budget of one second: run-main.spec.ts signals it.
import { onShutdown } from '../run-main';
import { stopSteps } from '../stop-steps';

onShutdown(stopSteps({ 'the quick step': () => undefined, 'the step that never ends': () => new Promise(() => undefined) }), 1);
setInterval(() => undefined, 60_000);
process.stdout.write('ready\n');
