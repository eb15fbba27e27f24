// jest setupFilesAfterEnv of the browser tests: a test during which any page broke the
// Content-Security-Policy fails, naming what was blocked.
import { expectCspViolations, takeCspViolations } from './browser';

afterEach(() => {
  const violations = takeCspViolations();
  expectCspViolations(undefined);
  if (violations.length > 0) throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
});
