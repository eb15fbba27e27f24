import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { readStored, storageKeys, writeStored } from '../../../lib/storage-keys';
import { useHydrated } from '../../../lib/hydration';
import { Button } from '../../../ui/button';
import { classNames } from '../../../ui/class-names';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { loadLeadSubmission, useCreateLead } from '../hooks/use-create-lead';

type FormRole = 'client' | 'coach';

const roleOptions: ReadonlyArray<{ value: FormRole; label: string }> = [
  { value: 'client', label: 'Client' },
  { value: 'coach', label: 'Coach' },
];

const storedRolePreference = (): FormRole => (readStored(storageKeys.landingRolePreference) === 'coach' ? 'coach' : 'client');

interface InterestFormProps {
  // "dark" sits on the indigo hero; "light" on a white card.
  tone?: 'dark' | 'light';
}

/**
 * E-mail plus role: the form behind most of the site's calls to action. Its fields are uncontrolled,
 * read on submit, because the page is prerendered: what a visitor types before React has taken over
 * the page must survive hydration, and a controlled field would be reset to its empty state.
 */
export function InterestForm({ tone = 'light' }: InterestFormProps) {
  const fieldId = useId();
  const roleField = useRef<HTMLSelectElement>(null);
  const checking = useRef(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const { createLead, isPending: submitting } = useCreateLead();
  const hydrated = useHydrated();

  // This browser's stored preference, unless the visitor already picked a role before hydration.
  useEffect(() => {
    const select = roleField.current;
    if (select && select.options[select.selectedIndex]?.defaultSelected) select.value = storedRolePreference();
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const email = String(fields.get('email') ?? '');
    const role = String(fields.get('role') ?? '');
    if (!email.trim() || !role || submitting || checking.current) return;
    // The submit flow may still be loading: a second tap meanwhile must not send the lead twice.
    checking.current = true;
    try {
      const check = (await loadLeadSubmission()).checkLeadForm({ email, role });
      setEmailError(check.ok ? null : check.emailError);
      if (check.ok) createLead(check.request);
    } finally {
      checking.current = false;
    }
  };

  const chooseRole = (value: string) => writeStored(storageKeys.landingRolePreference, value === 'coach' ? 'coach' : 'client');

  const labelClasses = classNames('mb-1.5 block text-sm font-medium', tone === 'dark' ? 'text-slate-200' : 'text-ink-950');

  return (
    <form
      onSubmit={(event) => void submit(event)}
      onFocus={() => void loadLeadSubmission()}
      aria-label="Express interest"
      className="grid gap-4 sm:grid-cols-[1.4fr_1fr_auto] sm:items-end"
    >
      <div>
        <label htmlFor={`${fieldId}-email`} className={labelClasses}>
          Email
        </label>
        <Input
          id={`${fieldId}-email`}
          type="email"
          name="email"
          autoComplete="email"
          required
          placeholder="you@example.com"
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${fieldId}-email-error` : undefined}
        />
      </div>
      <div>
        <label htmlFor={`${fieldId}-role`} className={labelClasses}>
          I am a
        </label>
        <Select ref={roleField} id={`${fieldId}-role`} name="role" defaultValue="client" onChange={(event) => chooseRole(event.target.value)}>
          {roleOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" size="lg" disabled={!hydrated || submitting} className="w-full sm:w-auto">
        {submitting ? 'Processing...' : 'Get Started Free'}
      </Button>
      {emailError && (
        <p id={`${fieldId}-email-error`} role="alert" className={classNames('text-sm sm:col-span-3', tone === 'dark' ? 'text-spark-200' : 'text-red-700')}>
          {emailError}
        </p>
      )}
    </form>
  );
}
