import { mayCall, patterns } from '@spark/contracts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const gatewaySource = join(__dirname, '..', '..', '..', 'gateway', 'src');

/** The gateway's own code, tests left out: a pattern it sends is named there as a string literal. */
const gatewayCode = readdirSync(gatewaySource, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(file))
  .map((file) => readFileSync(join(gatewaySource, file), 'utf8'))
  .join('\n');
const namedByGateway = (pattern: string) => [`'${pattern}'`, `"${pattern}"`, `\`${pattern}\``].some((literal) => gatewayCode.includes(literal));

/**
 * The bus lets the gateway send a pattern only if one of its routes does: a compromised gateway must not reach what
 * only services ask each other (an invitation without an approved lead, a deletion's progress).
 */
describe('the patterns the gateway may send', () => {
  it('are exactly those its code sends', () => {
    const patternNames = Object.keys(patterns);
    expect(patternNames.filter((pattern) => mayCall('gateway', pattern) && !namedByGateway(pattern))).toEqual([]);
    expect(patternNames.filter((pattern) => !mayCall('gateway', pattern) && namedByGateway(pattern))).toEqual([]);
  });
});
