// The contracts' schemas that screens which only read need now and then (an error answer, a typed address):
// imported with `import('./deferred-schemas')`, so zod loads on that first need, in its own chunk, while the
// project still imports the contracts library statically only (the module-boundary rule forbids both).
export { emailSchema, errorBodySchema } from '@spark/contracts';
