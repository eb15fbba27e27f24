import type { z } from 'zod';
import * as contracts from './index';
import { isStorableText, patterns, textSchema, UNSTORABLE_TEXT_MESSAGE } from './index';

type Node = { _zod: { def: Record<string, unknown> & { type: string } } };
const isSchema = (value: unknown): value is Node => typeof value === 'object' && value !== null && '_zod' in value;

/** Paths of the string schemas under `schema` that do not refuse unstorable text (formats such as uuid or email are safe). */
function unguardedStrings(schema: unknown, path: string, seen = new Set<unknown>()): string[] {
  if (!isSchema(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def;
  const walk = (child: unknown, suffix = '') => unguardedStrings(child, `${path}${suffix}`, seen);
  switch (def.type) {
    case 'string': {
      const checks = (def.checks ?? []) as Node[];
      const guarded = def.format !== undefined || checks.some((check) => check._zod.def.fn === isStorableText);
      return guarded ? [] : [path];
    }
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, child]) => walk(child, `.${key}`));
    case 'array':
      return walk(def.element, '[]');
    case 'union':
      return (def.options as unknown[]).flatMap((option) => walk(option));
    case 'pipe':
      return [...walk(def.in), ...walk(def.out)];
    case 'record':
      return [...walk(def.keyType, '{key}'), ...walk(def.valueType, '{}')];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return walk(def.innerType);
    default:
      return [];
  }
}

// Every schema that reads something from outside a process: HTTP bodies and queries, bus requests, jobs, and the
// model's answers that are stored.
const inputSchemas: [string, unknown][] = [
  ['the Day in the Life plan a model writes', contracts.ditlPlanSchema],
  ...Object.entries(patterns).map(([pattern, { request }]): [string, unknown] => [pattern, request]),
  ...Object.entries(contracts.jobsByQueue).flatMap(([queue, jobs]) =>
    Object.entries(jobs).map(([name, schema]): [string, unknown] => [`${queue}:${name}`, schema]),
  ),
  ...Object.entries(contracts).filter(([name]) => /(Request|Body|Query|Fields|Answers)Schema$/.test(name) && name !== 'errorBodySchema'),
];

describe('text PostgreSQL can store', () => {
  it.each([
    ['a NUL character', 'before\u0000after'],
    ['a lone high surrogate', 'half an emoji \ud83d'],
    ['a lone low surrogate', '\ude00 the other half'],
    ['two high surrogates', '\ud83d\ud83d\ude00'],
  ])('refuses %s with a field error', (_, text) => {
    const result = textSchema().safeParse(text);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([UNSTORABLE_TEXT_MESSAGE]);
  });

  it.each(['plain', 'emoji 😀 and flags 🇩🇪', 'Zoë, Łódź, 東京', '', 'tab\tand\nnew line'])('accepts %j', (text) => {
    expect(textSchema().safeParse(text).success).toBe(true);
  });

  it('guards every string of every request, body, query, bus message and job schema', () => {
    expect(inputSchemas.length).toBeGreaterThan(60);
    expect(inputSchemas.flatMap(([name, schema]) => unguardedStrings(schema as z.ZodType, name))).toEqual([]);
  });
});
