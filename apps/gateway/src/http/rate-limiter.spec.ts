import { ipSubject, mailboxSubject, networkSubject } from './rate-limiter';

describe('mailboxSubject: one subject per inbox', () => {
  it('counts the plus-addresses of one inbox together', () => {
    expect(mailboxSubject('ada+news@example.com')).toBe(mailboxSubject('ada@example.com'));
    expect(mailboxSubject('ada+a+b@example.com')).toBe(mailboxSubject('ada@example.com'));
  });

  it("counts Gmail's dotted and googlemail.com spellings of one inbox together", () => {
    const inbox = mailboxSubject('adalovelace@gmail.com');
    for (const variant of [
      'ada.lovelace@gmail.com',
      'a.d.a.l.o.v.e.l.a.c.e@gmail.com',
      'ada.lovelace+spark@gmail.com',
      'adalovelace@googlemail.com',
      'ada.love.lace+x@googlemail.com',
    ]) {
      expect(mailboxSubject(variant)).toBe(inbox);
    }
  });

  it('keeps the dots of other providers, where they name different inboxes', () => {
    expect(mailboxSubject('ada.lovelace@example.com')).not.toBe(mailboxSubject('adalovelace@example.com'));
    expect(mailboxSubject('ada.lovelace@gmail.com.example')).not.toBe(mailboxSubject('adalovelace@gmail.com.example'));
    expect(mailboxSubject('ada@gmail.com')).not.toBe(mailboxSubject('ada@example.com'));
  });

  it('hashes the mailbox, so no address becomes a key name', () => {
    expect(mailboxSubject('ada@gmail.com')).toMatch(/^[\w-]{43}$/);
  });
});

describe('ipSubject: one subject per client network', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(ipSubject('203.0.113.7')).toBe('203.0.113.7');
  });

  it('reads an IPv6 address as its /64, however it is written', () => {
    for (const address of [
      '2001:db8:aa:bb:1:2:3:4',
      '2001:db8:aa:bb::1',
      '2001:0DB8:00aa:00bb:ffff::',
      '2001:db8:aa:bb::192.0.2.1',
      '2001:db8:aa:bb::1%eth0',
    ]) {
      expect(ipSubject(address)).toBe('2001:db8:aa:bb::/64');
    }
    expect(ipSubject('2001:db8:aa:bc::1')).toBe('2001:db8:aa:bc::/64');
    expect(ipSubject('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipSubject('::1')).toBe('0:0:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(ipSubject('::ffff:192.0.2.60')).toBe('192.0.2.60');
    expect(ipSubject('::FFFF:c000:23c')).toBe('192.0.2.60');
    expect(ipSubject('0:0:0:0:0:ffff:192.0.2.60')).toBe('192.0.2.60');
  });

  it('keeps what is not an address as it is', () => {
    expect(ipSubject('unknown')).toBe('unknown');
  });
});

describe('networkSubject: one subject per allocation around a client', () => {
  it('reads an IPv6 address as its /48, whichever of its /64s it comes from', () => {
    for (const address of ['2001:db8:aa:bb::1', '2001:db8:aa:ffff:1:2:3:4', '2001:0DB8:00aa::', '2001:db8:aa:bb::1%eth0']) {
      expect(networkSubject(address)).toBe('2001:db8:aa::/48');
    }
    expect(networkSubject('2001:db8:ab::1')).toBe('2001:db8:ab::/48');
  });

  it('reads an IPv4 address, mapped or not, as its /24', () => {
    for (const address of ['192.0.2.60', '192.0.2.1', '::ffff:192.0.2.60', '::FFFF:c000:2ff']) expect(networkSubject(address)).toBe('192.0.2.0/24');
    expect(networkSubject('192.0.3.60')).toBe('192.0.3.0/24');
  });

  it('keeps what is not an address as it is', () => {
    expect(networkSubject('unknown')).toBe('unknown');
  });
});
