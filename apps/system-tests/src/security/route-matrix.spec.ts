import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayRouteDecisions } from '../../../gateway/src/main';
import { renderRouteMatrix, routeExpectations } from './route-expectations';

const securityDoc = join(__dirname, '..', '..', '..', '..', 'docs', 'security.md');
const START = '<!-- route-matrix:start -->';
const END = '<!-- route-matrix:end -->';

describe('the route × role matrix', () => {
  const decisions = gatewayRouteDecisions();

  it('has a decision for every route the gateway serves, and none for a route it does not', () => {
    const served = decisions.map((decision) => decision.route);
    expect(served.filter((route) => !routeExpectations[route])).toEqual([]);
    expect(Object.keys(routeExpectations).filter((route) => !served.includes(route))).toEqual([]);
  });

  it("states each route's access exactly as its decorators do", () => {
    for (const { route, access } of decisions) expect({ route, access: routeExpectations[route]?.access }).toEqual({ route, access });
  });

  it('is the table docs/security.md shows (WRITE_ROUTE_MATRIX=1 rewrites it)', () => {
    const document = readFileSync(securityDoc, 'utf8');
    const [before, rest = ''] = document.split(START);
    const after = rest.split(END)[1] ?? '';
    const current = `${before}${START}\n${renderRouteMatrix()}\n${END}${after}`;
    if (process.env.WRITE_ROUTE_MATRIX === '1') writeFileSync(securityDoc, current);
    expect(document).toBe(current);
  });
});
