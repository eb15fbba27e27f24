import { loggableUrl } from './secret-bearing-pages';

describe('loggableUrl', () => {
  it('logs the sign-in landing page without its query or fragment', () => {
    expect(loggableUrl('/magic-link-auth?token=abc&next=coach&approved=true')).toBe('/magic-link-auth');
    expect(loggableUrl('/magic-link-auth#token=abc')).toBe('/magic-link-auth');
  });

  it('leaves other URLs to the logger, which removes token and code values', () => {
    expect(loggableUrl('/api/coach/leads?limit=25')).toBe('/api/coach/leads?limit=25');
  });

  it("logs that a list was searched, not what was typed (often a client's address or name)", () => {
    expect(loggableUrl('/api/coach/leads?status=all&search=ann%40example.com&limit=25')).toBe('/api/coach/leads?status=all&search=[redacted]&limit=25');
    expect(loggableUrl('/api/auth/users?search=Ann+Smith')).toBe('/api/auth/users?search=[redacted]');
  });

  it("logs that the audit log was filtered by actor, not whom (an admin types the actor's address)", () => {
    expect(loggableUrl('/api/admin/audit?action=sign-in&actor=ann%40example.com&limit=50')).toBe('/api/admin/audit?action=sign-in&actor=[redacted]&limit=50');
    expect(loggableUrl('/api/admin/audit?ACTOR=ann@example.com#top')).toBe('/api/admin/audit?ACTOR=[redacted]#top');
  });
});
