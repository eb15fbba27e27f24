import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options: { type: 'minor' }) => void;

let gc: Gc | null | undefined;

// V8's `gc()` without starting Node with --expose-gc: the flag is set just long enough for one new context
// to get the function, then cleared, so no other context (a test runner's, say) sees it.
function youngCollector(): Gc | null {
  if (gc !== undefined) return gc;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as Gc;
    setFlagsFromString('--no-expose-gc');
  } catch {
    gc = null;
  }
  return gc;
}

/**
 * Runs a young-generation (scavenge) GC, 1–3 ms in the gateway. Node copies every chunk of a request body
 * into a new buffer; V8 frees dead ones only at a scavenge, and starts one for their sake only once
 * 32 MB of them have piled up (2 × its largest semi-space, whatever --max-semi-space-size says). A
 * stream upload calls this after each 5 MiB part, so those copies cost about one part of memory instead
 * of 32 MB. Measured in docs/benchmarks.md ("Sparks").
 */
export function collectYoungGarbage(): void {
  youngCollector()?.({ type: 'minor' });
}
