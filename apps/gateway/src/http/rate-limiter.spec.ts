import { mailboxSubject } from './rate-limiter';

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
