import { readFileSync } from 'node:fs';
import { repositoryFile } from '@spark/testing';

const KEY_PATTERN = /^%?[RW]*~/;

/** Each Redis user's key patterns (`~…`, `%W~…`, `%R~…`) in deploy/redis/users.acl. */
function aclKeyPatterns(): Map<string, string[]> {
  const lines = readFileSync(repositoryFile('deploy/redis/users.acl'), 'utf8').split('\n');
  return new Map(
    lines
      .map((line) => line.trim().split(/\s+/))
      .filter(([word, name]) => word === 'user' && name !== 'default')
      .map(([, name, ...rules]) => [name ?? '', rules.filter((rule) => KEY_PATTERN.test(rule)).sort()]),
  );
}

/** The same, as docs/operations.md's "Redis users" table lists them (the second column's quoted patterns). */
function documentedKeyPatterns(): Map<string, string[]> {
  const rows = readFileSync(repositoryFile('docs/operations.md'), 'utf8')
    .split('\n')
    .map((line) => /^\| `([a-z]+)` \| (.+?) \|/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null);
  return new Map(
    rows.map(([, name, keys]) => [
      name ?? '',
      [...(keys ?? '').matchAll(/`([^`]+)`/g)]
        .map(([, pattern]) => pattern ?? '')
        .filter((pattern) => KEY_PATTERN.test(pattern))
        .sort(),
    ]),
  );
}

describe("docs/operations.md's Redis users and deploy/redis/users.acl", () => {
  it('name the same users with the same key patterns, so the reasons an operator reads are for the grants Redis enforces', () => {
    const acl = aclKeyPatterns();
    expect(acl.size).toBeGreaterThan(8);
    expect(Object.fromEntries(documentedKeyPatterns())).toEqual(Object.fromEntries(acl));
  });
});
