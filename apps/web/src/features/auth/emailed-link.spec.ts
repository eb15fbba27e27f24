import { readEmailedLink, searchWithoutToken } from './emailed-link';

describe('the e-mailed sign-in link', () => {
  it('reads the token from the fragment, next and approved from the query', () => {
    expect(readEmailedLink('?next=ditl-welcome&approved=true', '#token=abc_-1')).toEqual({ token: 'abc_-1', next: 'ditl-welcome', approved: true });
  });

  it('still reads a token from the query of a link sent before it moved to the fragment', () => {
    expect(readEmailedLink('?token=old&next=goal', '')).toEqual({ token: 'old', next: 'goal', approved: false });
  });

  it('has no token when neither carries one', () => {
    expect(readEmailedLink('', '#type=magiclink')).toEqual({ token: null, next: null, approved: false });
  });

  it('drops only the token from the query', () => {
    expect(searchWithoutToken('?token=old&next=goal&approved=true')).toBe('?next=goal&approved=true');
    expect(searchWithoutToken('?token=old')).toBe('');
  });
});
