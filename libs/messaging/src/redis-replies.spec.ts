import { deadConsumers, entriesOfReadGroup, parseAutoClaim, parseConsumers } from './redis-replies';

describe('redis stream replies', () => {
  it('read the entries of one stream from XREADGROUP, and none after a timeout', () => {
    expect(entriesOfReadGroup([['s', [['1-0', ['p', 'x']]]]])).toEqual([['1-0', ['p', 'x']]]);
    expect(entriesOfReadGroup(null)).toEqual([]);
  });

  it('read XAUTOCLAIM and drop deleted entries', () => {
    expect(
      parseAutoClaim([
        '5-0',
        [
          ['1-0', ['p', 'x']],
          ['2-0', null],
        ],
        ['3-0'],
      ]),
    ).toEqual({
      nextCursor: '5-0',
      entries: [['1-0', ['p', 'x']]],
    });
  });

  it('prefer inactive over idle in XINFO CONSUMERS', () => {
    const rows = [
      ['name', 'a', 'pending', 0, 'idle', 5, 'inactive', 900],
      ['name', 'b', 'pending', 2, 'idle', 700],
    ];

    expect(parseConsumers(rows)).toEqual([
      { name: 'a', pending: 0, idleMs: 900 },
      { name: 'b', pending: 2, idleMs: 700 },
    ]);
  });

  it('call dead only other consumers that hold nothing and have been silent long enough', () => {
    const consumers = [
      { name: 'self', pending: 0, idleMs: 10_000 },
      { name: 'dead', pending: 0, idleMs: 10_000 },
      { name: 'holding', pending: 1, idleMs: 10_000 },
      { name: 'recent', pending: 0, idleMs: 10 },
    ];

    expect(deadConsumers(consumers, 1_000, 'self')).toEqual(['dead']);
  });
});
