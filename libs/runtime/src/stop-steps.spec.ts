import { stopSteps } from './stop-steps';

describe('stopSteps', () => {
  it('runs its steps in order and names the one it waits on, nested stops included', async () => {
    const ran: string[] = [];
    let releaseWorker = () => {};
    const worker = new Promise<void>((resolve) => (releaseWorker = resolve));
    const app = stopSteps({
      'the mail worker': async () => {
        ran.push('mail worker');
        await worker;
      },
      'the queues': () => ran.push('queues'),
    });
    const stop = stopSteps({ 'the health port': () => ran.push('health'), 'the app': app, 'the database': () => ran.push('database') });
    expect(stop.waitingOn?.()).toBeUndefined();

    const stopped = stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stop.waitingOn?.()).toBe('the app: the mail worker');
    releaseWorker();
    await stopped;

    expect(ran).toEqual(['health', 'mail worker', 'queues', 'database']);
    expect(stop.waitingOn?.()).toBeUndefined();
  });
});
