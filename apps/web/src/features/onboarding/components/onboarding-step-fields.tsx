import { activityLevels, familyStatuses, genders, goalTags, type GoalTag } from '@spark/contracts';
import { classNames } from '../../../ui/class-names';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import type { OnboardingDraft } from '../onboarding-draft';
import type { FieldErrors } from '../onboarding-steps';
import { FormField, textareaClasses } from './form-field';

interface StepFieldsProps {
  step: number;
  draft: OnboardingDraft;
  errors: FieldErrors;
  onChange: (changes: Partial<OnboardingDraft>) => void;
}

const labelOf = (value: string) => value.replace(/_/g, ' ').replace(/^\w/, (char) => char.toUpperCase());
const errorProps = (errors: FieldErrors, key: keyof OnboardingDraft) => (errors[key] ? { 'aria-invalid': true, 'aria-describedby': `${key}-error` } : {});

/** The fields of one of the four steps (docs/product.md §2, /onboarding). */
export function StepFields({ step, draft, errors, onChange }: StepFieldsProps) {
  const text = (key: keyof OnboardingDraft) => ({
    id: key,
    name: key,
    value: draft[key] as string,
    onChange: (event: { target: { value: string } }) => onChange({ [key]: event.target.value }),
    ...errorProps(errors, key),
  });
  const toggleTag = (tag: GoalTag) =>
    onChange({ goalTags: draft.goalTags.includes(tag) ? draft.goalTags.filter((held) => held !== tag) : [...draft.goalTags, tag] });

  if (step === 0) {
    return (
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="firstName" label="First name" error={errors.firstName}>
          <Input {...text('firstName')} autoComplete="given-name" autoFocus />
        </FormField>
        <FormField id="lastName" label="Last name" optional>
          <Input {...text('lastName')} autoComplete="family-name" />
        </FormField>
      </div>
    );
  }
  if (step === 1) {
    return (
      <div className="space-y-5">
        <FormField id="transformationGoal" label="What Sparked your Transformation?" error={errors.transformationGoal}>
          <textarea {...text('transformationGoal')} className={textareaClasses} placeholder="e.g. Run a half marathon by June without burning out" />
        </FormField>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-ink-950">
            Focus areas <span className="text-xs font-normal text-slate-500">(optional)</span>
          </legend>
          <div className="flex flex-wrap gap-2">
            {goalTags.map((tag) => {
              const selected = draft.goalTags.includes(tag);
              return (
                <button
                  key={tag}
                  type="button"
                  aria-pressed={selected}
                  onClick={() => toggleTag(tag)}
                  className={classNames(
                    'rounded-full px-3.5 py-1.5 text-sm font-medium ring-1 ring-inset transition-colors',
                    selected ? 'bg-ink-900 text-white ring-ink-900' : 'bg-white text-ink-900 ring-slate-300 hover:bg-ink-50',
                  )}
                >
                  {tag}
                </button>
              );
            })}
          </div>
        </fieldset>
      </div>
    );
  }
  if (step === 2) {
    return (
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="age" label="Age" error={errors.age}>
          <Input {...text('age')} type="number" inputMode="numeric" min={18} max={100} />
        </FormField>
        <FormField id="activityLevel" label="Activity level" error={errors.activityLevel}>
          <Select {...text('activityLevel')}>
            <option value="">Choose one</option>
            {activityLevels.map((level) => (
              <option key={level} value={level}>
                {labelOf(level)}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="gender" label="Gender" optional>
          <Select {...text('gender')}>
            <option value="">Not specified</option>
            {genders.map((gender) => (
              <option key={gender} value={gender}>
                {labelOf(gender)}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="familyStatus" label="Family status" optional>
          <Select {...text('familyStatus')}>
            <option value="">Not specified</option>
            {familyStatuses.map((status) => (
              <option key={status} value={status}>
                {labelOf(status)}
              </option>
            ))}
          </Select>
        </FormField>
        <div className="sm:col-span-2">
          <FormField id="occupation" label="Occupation" optional>
            <Input {...text('occupation')} autoComplete="organization-title" />
          </FormField>
        </div>
      </div>
    );
  }
  return (
    <div className="space-y-5">
      <FormField id="typicalDay" label="Describe a typical day" hint="From waking up to going to bed, in a few sentences." error={errors.typicalDay}>
        <textarea {...text('typicalDay')} className={textareaClasses} />
      </FormField>
      <FormField id="biggestChallenge" label="Your biggest challenge" error={errors.biggestChallenge}>
        <textarea {...text('biggestChallenge')} className={textareaClasses} />
      </FormField>
      <FormField id="currentWin" label="A current win" optional hint="Something already working for you.">
        <textarea {...text('currentWin')} className={textareaClasses} />
      </FormField>
    </div>
  );
}
