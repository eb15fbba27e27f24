// zod builds faster object parsers with `new Function` when it may, and probes for that once per schema
// module; under our Content-Security-Policy (no 'unsafe-eval') the probe is a reported violation on every
// page. zod reads this global when schemas are created, so this module is imported before any of them.
const zodConfig = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
zodConfig.__zod_globalConfig = { ...zodConfig.__zod_globalConfig, jitless: true };
