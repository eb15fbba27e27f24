import type { DitlPlan, DitlMomentEditBody } from '@spark/contracts';

type Slide = DitlPlan['slides'][number];

/** A coach's rewrite of one moment, as stored. */
export interface CoachEdit {
  moment: string;
  narrative: string;
  habit: string;
  updatedAt: Date;
}

/**
 * Each slide's moment name: its kind, and `-2`, `-3`… for later slides of the same kind. The name, not
 * the slide's position, carries an edit over to the next plan, which may add, drop or reorder slides.
 */
export function momentKeys(plan: DitlPlan): string[] {
  const seen = new Map<string, number>();
  return plan.slides.map((slide) => {
    const count = (seen.get(slide.moment) ?? 0) + 1;
    seen.set(slide.moment, count);
    return count === 1 ? slide.moment : `${slide.moment}-${count}`;
  });
}

export interface EditedSlide {
  key: string;
  slide: Slide;
  generated: Pick<Slide, 'narrative' | 'habit'>;
  edit: CoachEdit | undefined;
}

/** The plan's slides with the coach's edits applied; an edit whose moment the plan lacks waits for one that has it. */
export function editedSlides(plan: DitlPlan, edits: readonly CoachEdit[]): EditedSlide[] {
  const byMoment = new Map(edits.map((edit) => [edit.moment, edit]));
  const keys = momentKeys(plan);
  return plan.slides.map((slide, index) => {
    const key = keys[index] ?? slide.moment;
    const edit = byMoment.get(key);
    const text: DitlMomentEditBody | undefined = edit && { narrative: edit.narrative, habit: edit.habit };
    return { key, slide: text ? { ...slide, ...text } : slide, generated: { narrative: slide.narrative, habit: slide.habit }, edit };
  });
}

/** The plan the client is shown: the planner's, with the coach's word wherever the coach changed a moment. */
export const applyCoachEdits = (plan: DitlPlan, edits: readonly CoachEdit[]): DitlPlan => ({
  ...plan,
  slides: editedSlides(plan, edits).map(({ slide }) => slide),
});
