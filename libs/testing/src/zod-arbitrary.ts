import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Builds an arbitrary when it is first asked for: some are slow to build (a string of lone surrogates, a web URL),
 * which every test file importing this library would otherwise pay, fuzzing or not.
 */
function builtOnFirstUse<T>(build: () => fc.Arbitrary<T>): () => fc.Arbitrary<T> {
  let built: fc.Arbitrary<T> | undefined;
  return () => (built ??= build());
}

/** Text an attacker or a broken client sends: control characters, lone surrogates, markup, SQL, sheer length. */
export const hostileString = builtOnFirstUse(() =>
  fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) }),
    fc.constantFrom(
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udfffy',
      '%00',
      "'; DROP TABLE auth.users; --",
      '<img src=x onerror=alert(1)>',
      '../../etc/passwd',
      '\u202e',
      ' ',
    ),
    fc.integer({ min: 1, max: 20 }).map((n) => 'x'.repeat(n * 1000)),
  ),
);

interface Def {
  type: string;
  format?: string;
  checks?: { _zod: { def: { check: string; format?: string; pattern?: RegExp; value?: number } } }[];
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  valueType?: z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const formatted: Record<string, () => fc.Arbitrary<string>> = {
  email: builtOnFirstUse(() => fc.emailAddress()),
  uuid: builtOnFirstUse(() => fc.uuid()),
  datetime: builtOnFirstUse(() => fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((date) => date.toISOString())),
  date: builtOnFirstUse(() =>
    fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((date) => date.toISOString().slice(0, 10)),
  ),
  url: builtOnFirstUse(() => fc.webUrl()),
};

function stringNear(def: Def): fc.Arbitrary<string> {
  const pattern = def.checks?.find((check) => check._zod.def.format === 'regex')?._zod.def.pattern;
  const valid = def.format ? formatted[def.format]?.() : pattern ? fc.stringMatching(pattern) : fc.string({ maxLength: 40 });
  return fc.oneof({ weight: 3, arbitrary: valid ?? fc.string() }, { weight: 2, arbitrary: hostileString() });
}

function numberNear(def: Def): fc.Arbitrary<unknown> {
  const bound = (check: string) => def.checks?.find((c) => c._zod.def.check === check)?._zod.def.value;
  const min = bound('greater_than') ?? -1000;
  const max = bound('less_than') ?? 1000;
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1e308, Number.MAX_SAFE_INTEGER + 2, 0.5, '12', '1e999', 'NaN') },
  );
}

/**
 * Values shaped like what `schema` accepts, mixed with hostile ones: most fields valid, some wrong in the ways
 * clients and attackers get them wrong. Fuzzing with these reaches past validation into the handlers.
 */
export function arbitraryNear(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const fields = Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, field]) => [key, arbitraryNear(field)]));
      const record = fc.record(fields, { requiredKeys: [] });
      return fc.oneof(
        { weight: 5, arbitrary: record },
        { weight: 1, arbitrary: fc.tuple(record, fc.dictionary(fc.string(), fc.anything())).map(([a, b]) => ({ ...b, ...a })) },
      );
    }
    case 'string':
      return stringNear(def);
    case 'number':
      return numberNear(def);
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 1, null));
    case 'enum':
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...Object.values(def.entries ?? { none: 'none' })) }, { weight: 1, arbitrary: hostileString() });
    case 'literal':
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(def.values ?? [null])) }, { weight: 1, arbitrary: fc.anything() });
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(arbitraryNear(def.innerType as z.ZodType), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(arbitraryNear(def.innerType as z.ZodType), { nil: null, freq: 4 });
    case 'pipe':
      return arbitraryNear(def.in as z.ZodType);
    case 'union':
      return fc.oneof(...(def.options ?? []).map(arbitraryNear));
    case 'array':
      return fc.array(arbitraryNear(def.element as z.ZodType), { maxLength: 6 });
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), arbitraryNear(def.valueType as z.ZodType), { maxKeys: 4 });
    default:
      return fc.anything();
  }
}

/** Anything JSON can carry, and values shaped like the schema: what a fuzzer sends to a route or a pattern. */
export const arbitraryPayload = (schema: z.ZodType): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 1, arbitrary: fc.jsonValue() }, { weight: 3, arbitrary: arbitraryNear(schema) });
