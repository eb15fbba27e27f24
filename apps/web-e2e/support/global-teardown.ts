// jest globalTeardown: stops every process global-setup started.
import { forgetStack } from './stack';

export default async function globalTeardown(): Promise<void> {
  await forgetStack()?.stop();
}
