import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateProfile, evaluationTable } from './evaluation';
import { evaluationProfiles } from './profiles';

const docsPath = join(__dirname, '../../../../docs/ditl.md');
const tableInDocs = () => /<!-- evaluation-table:start -->\n([\s\S]*?)\n<!-- evaluation-table:end -->/.exec(readFileSync(docsPath, 'utf8'))?.[1];

describe('the evaluation set', () => {
  it('holds at least 12 contrasting profiles', () => {
    expect(evaluationProfiles.length).toBeGreaterThanOrEqual(12);
    expect(new Set(evaluationProfiles.map((profile) => profile.id)).size).toBe(evaluationProfiles.length);
  });

  it.each(evaluationProfiles.map((profile) => [profile.id, profile] as const))('gives %s an offline plan that passes every check', (_id, profile) => {
    expect(evaluateProfile(profile).violations).toEqual([]);
  });

  it('is shown as it is in docs/ditl.md', () => {
    // On a difference, paste the table printed here between the evaluation-table markers.
    expect(tableInDocs()).toBe(evaluationTable());
  });
});
