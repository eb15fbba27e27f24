import { SharedRequests } from './shared-requests';

/** Requests the test answers when it chooses, in the order they were sent. */
function controlledSender() {
  const sent: { answer: (value: string) => void; fail: (error: Error) => void }[] = [];
  const send = () =>
    new Promise<string>((resolve, reject) => {
      sent.push({ answer: resolve, fail: reject });
    });
  return { sent, send };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedRequests', () => {
  it('sends two requests for any number of callers asking together: the first, and one shared by the rest', async () => {
    const shared = new SharedRequests();
    const { sent, send } = controlledSender();
    const answers = Promise.all(Array.from({ length: 5 }, () => shared.run('k', send)));
    expect(sent).toHaveLength(1);
    sent[0]?.answer('first');
    await settle();
    expect(sent).toHaveLength(2);
    sent[1]?.answer('second');
    await expect(answers).resolves.toEqual(['first', 'second', 'second', 'second', 'second']);
  });

  it('never hands a caller the answer of a request sent before it asked: it waits for the next one', async () => {
    const shared = new SharedRequests();
    const { sent, send } = controlledSender();
    const early = shared.run('k', send);
    const late = [shared.run('k', send), shared.run('k', send), shared.run('k', send)];
    expect(sent).toHaveLength(1);

    sent[0]?.answer('read before the late callers asked');
    await expect(early).resolves.toBe('read before the late callers asked');
    await settle();
    expect(sent).toHaveLength(2);
    sent[1]?.answer('read after they asked');
    await expect(Promise.all(late)).resolves.toEqual(['read after they asked', 'read after they asked', 'read after they asked']);
  });

  it('keeps different keys apart', async () => {
    const shared = new SharedRequests();
    const { sent, send } = controlledSender();
    const answers = Promise.all([shared.run('a', send), shared.run('b', send)]);
    expect(sent).toHaveLength(2);
    sent[0]?.answer('for a');
    sent[1]?.answer('for b');
    await expect(answers).resolves.toEqual(['for a', 'for b']);
  });

  it('gives every caller of a failed request its error, then sends afresh', async () => {
    const shared = new SharedRequests();
    const { sent, send } = controlledSender();
    const first = shared.run('k', send);
    const joined = shared.run('k', send);
    sent[0]?.fail(new Error('down'));
    await expect(first).rejects.toThrow('down');
    await settle();
    sent[1]?.fail(new Error('still down'));
    await expect(joined).rejects.toThrow('still down');

    await settle();
    const again = shared.run('k', send);
    expect(sent).toHaveLength(3);
    sent[2]?.answer('back');
    await expect(again).resolves.toBe('back');
  });

  it('sends at once again when nothing is in flight', async () => {
    const shared = new SharedRequests();
    const { sent, send } = controlledSender();
    const first = shared.run('k', send);
    sent[0]?.answer('one');
    await first;
    await settle();
    const second = shared.run('k', send);
    expect(sent).toHaveLength(2);
    sent[1]?.answer('two');
    await expect(second).resolves.toBe('two');
  });
});
