import { loggableUrl } from './secret-bearing-pages';

describe('loggableUrl', () => {
  it('logs the sign-in landing page without its query or fragment', () => {
    expect(loggableUrl('/magic-link-auth?token=abc&next=coach&approved=true')).toBe('/magic-link-auth');
    expect(loggableUrl('/magic-link-auth#token=abc')).toBe('/magic-link-auth');
  });

  it('leaves other URLs to the logger, which removes token and code values', () => {
    expect(loggableUrl('/api/coach/leads?limit=25')).toBe('/api/coach/leads?limit=25');
  });
});
