/**
 * The address as the server reads it (trimmed, lower-cased), or the sentence that says what is wrong. zod loads
 * with the first submit: it would otherwise be a fifth of the sign-in page's script.
 */
export async function parseEmail(email: string): Promise<{ email: string } | { error: string }> {
  const { emailSchema } = await import('../../api/deferred-schemas');
  const parsed = emailSchema.safeParse(email);
  return parsed.success ? { email: parsed.data } : { error: parsed.error.issues[0]?.message ?? 'Please enter a valid email address' };
}
