import { randomUUID } from 'node:crypto';
import {
  type CoachDitlMoment,
  type CoachDitlView,
  type CurrentDitlResponse,
  type DitlGenerationSummary,
  type DitlStatusResponse,
  type ExportedDitl,
  type GenerateDitlResponse,
  type MailApproval,
  type PayloadOf,
  waitPhrase,
} from '@spark/contracts';
import type { SigningKeys } from '@spark/config';
import type { OutboxRelay } from '@spark/jobs';
import { DomainError } from '@spark/errors';
import { ensureExportGranted } from '@spark/messaging';
import { accountErased } from '@spark/service-runtime';
import { renderPresentation } from '../planner/presentation-html';
import { applyCoachEdits, type EditedSlide, editedSlides, momentKeys } from './coach-edits';
import type { GenerationRow, GenerationsRepository } from './generations.repository';
import { GIVE_UP_SECONDS } from './give-up';

type Reader = PayloadOf<'ditl.check-status'>['reader'];
/** A client's request, or a coach's regeneration of it, which carries the client's statement if it has one. */
type GenerationRequest = Omit<PayloadOf<'ditl.generate'>, 'requested'> & { requested: MailApproval | null };

/** Reads the stored presentation; the S3 adapter in production. */
export interface PresentationReader {
  getText(key: string): Promise<string>;
}

// The budget counts every generation asked for in this rolling window, finished, failed or running.
const BUDGET_WINDOW_HOURS = 24;

const budgetSpent = (budget: number, retryAfterSeconds: number) =>
  new DomainError(
    'RATE_LIMITED',
    `You have created ${budget} Day in the Life presentations in the last 24 hours, the most for one day. You can create another in ${waitPhrase(retryAfterSeconds)}.`,
    { retryAfterSeconds },
  );

export const presentationPath = (generationId: string) => `/api/ditl/generations/${generationId}/presentation`;

const statusOf = (row: GenerationRow): DitlStatusResponse => ({
  generationId: row.id,
  status: row.status,
  progress: row.progress,
  presentationUrl: row.status === 'completed' ? presentationPath(row.id) : null,
  updatedAt: row.updated_at.toISOString(),
});

const asCoachMoment = ({ key, slide, generated, edit }: EditedSlide): CoachDitlMoment => ({
  key,
  kind: slide.moment,
  time: slide.time,
  title: slide.title,
  narrative: slide.narrative,
  habit: slide.habit,
  sparkToCapture: slide.sparkToCapture,
  generated,
  editedAt: edit?.updatedAt.toISOString() ?? null,
});

const summaryOf = (row: GenerationRow): DitlGenerationSummary => ({
  generationId: row.id,
  status: row.status,
  progress: row.progress,
  planner: row.planner,
  createdAt: row.created_at.toISOString(),
  completedAt: row.completed_at?.toISOString() ?? null,
});

export class GenerationsService {
  constructor(
    private readonly generations: GenerationsRepository,
    private readonly outbox: Pick<OutboxRelay, 'kick'>,
    private readonly presentations: PresentationReader,
    /** Generations one user may ask for per 24 hours: each is a model call (`DITL_DAILY_GENERATIONS`). */
    private readonly dailyBudget: number,
    /** The gateway's key for this service, which signs the grants of data exports. */
    private readonly signingKeys: SigningKeys,
  ) {}

  /**
   * Stores the request as queued and queues its job through the outbox. A try of a request already answered (the
   * same `requestId` from the client's device) gets its generation again, whatever its status: its first answer may
   * have been lost. A repeat while the user's last request is still in progress answers that one: a double submit
   * never pays for two model runs, nor counts twice against the daily budget. Over the budget: RATE_LIMITED (429)
   * saying when. The user's lock makes concurrent tries take turns, so the second finds the first's generation.
   */
  async generate(request: GenerationRequest): Promise<GenerateDitlResponse> {
    const { requestId } = request;
    const outcome = await this.generations.forUser(request.userId, async (generations) => {
      if (await generations.erased(request.userId)) throw accountErased();
      await generations.failStale(GIVE_UP_SECONDS, request.userId);
      const answered = requestId && (await generations.findByRequest(request.userId, requestId));
      if (answered) return { generationId: answered, created: false };
      const inProgress = await generations.findUnfinished(request.userId);
      if (inProgress) {
        if (requestId) await generations.answersRequest(inProgress, requestId);
        return { generationId: inProgress, created: false };
      }
      const recent = await generations.createdWithin(request.userId, BUDGET_WINDOW_HOURS);
      if (recent.count >= this.dailyBudget) throw budgetSpent(this.dailyBudget, Math.max(1, recent.secondsUntilOneLeaves));
      const generationId = randomUUID();
      await generations.insertWithJob(
        {
          id: generationId,
          userId: request.userId,
          email: request.email,
          leadId: request.leadId ?? null,
          answers: request.answers,
          requested: request.requested,
          evolutionDays: request.evolutionDays,
          requestId: requestId ?? null,
        },
        { queue: 'ditl', name: 'generate-ditl', data: { generationId } },
      );
      return { generationId, created: true };
    });
    if (outcome.created) this.outbox.kick();
    return { generationId: outcome.generationId };
  }

  async checkStatus({ generationId, reader }: PayloadOf<'ditl.check-status'>): Promise<DitlStatusResponse> {
    return statusOf(await this.readable(generationId, reader));
  }

  async getPresentation({ generationId, reader }: PayloadOf<'ditl.get-presentation'>): Promise<{ html: string }> {
    return { html: await this.pageOf(await this.readable(generationId, reader)) };
  }

  /** The client's newest finished presentation, which the home screen reopens, and their newest request. */
  async current({ userId }: PayloadOf<'ditl.current'>): Promise<CurrentDitlResponse> {
    const [finished, latest] = await Promise.all([this.generations.newest(userId, 'completed'), this.generations.newest(userId)]);
    return { generation: finished ? statusOf(finished) : null, latest: latest ? summaryOf(latest) : null };
  }

  /**
   * One finished presentation, newest first, with its page and the answers and plan it was made from, for the progress
   * service's export: only with the gateway's grant. Every one is the client's, not only the one the home reopens.
   */
  async exportPresentation(request: PayloadOf<'ditl.export-presentation'>): Promise<ExportedDitl> {
    ensureExportGranted(this.signingKeys, 'ditl', request);
    const { row, next } = await this.generations.completedBefore(request.userId, request.before);
    if (!row) return { generation: null, html: null, next: null };
    return { generation: statusOf(row), html: await this.pageOf(row), answers: row.answers, plan: row.plan, next };
  }

  /** The coach's tab: the newest request (which may still run) and the newest finished plan, edits applied. */
  async coachView({ userId }: PayloadOf<'ditl.coach-view'>): Promise<CoachDitlView> {
    const [latest, current, edits] = await Promise.all([
      this.generations.newest(userId),
      this.generations.newest(userId, 'completed'),
      this.generations.coachEdits(userId),
    ]);
    return {
      latest: latest ? summaryOf(latest) : null,
      current: current
        ? {
            generation: summaryOf(current),
            title: current.plan?.title ?? '',
            subtitle: current.plan?.subtitle ?? '',
            moments: current.plan ? editedSlides(current.plan, edits).map(asCoachMoment) : [],
          }
        : null,
    };
  }

  /**
   * A new generation from the answers of the client's newest request (the onboarding answers as the
   * client last sent them) and the evolution's length as it is now, under the client's own daily budget and
   * double-submit rule.
   */
  async coachRegenerate({ userId, evolutionDays }: PayloadOf<'ditl.coach-regenerate'>): Promise<GenerateDitlResponse> {
    const newest = await this.generations.newest(userId);
    if (!newest) throw new DomainError('NOT_FOUND', 'This client has no Day in the Life yet: it is made from their answers when they finish onboarding.');
    return this.generate({ userId, email: newest.email, answers: newest.answers, requested: newest.requested, evolutionDays });
  }

  /** Under the client's lock, which their erasure takes too: an edit saved meanwhile would outlive it. */
  async editMoment({ userId, moment, coachId, edit }: PayloadOf<'ditl.coach-edit-moment'>): Promise<CoachDitlView> {
    await this.generations.forUser(userId, async (generations) => {
      const current = await generations.newest(userId, 'completed');
      if (!current?.plan || !momentKeys(current.plan).includes(moment)) {
        throw new DomainError('NOT_FOUND', "This moment is not in the client's current Day in the Life.");
      }
      await generations.saveCoachEdit(userId, coachId, { moment, ...edit });
    });
    return this.coachView({ userId });
  }

  async resetMoment({ userId, moment }: PayloadOf<'ditl.coach-reset-moment'>): Promise<CoachDitlView> {
    await this.generations.deleteCoachEdit(userId, moment);
    return this.coachView({ userId });
  }

  // A client sees only its own generations; someone else's answers NOT_FOUND, so ids cannot be probed.
  /**
   * The page drawn from the stored plan with the coach's edits, so an edit reaches every page the client
   * opens; a generation finished before plans were kept has only its page in S3.
   */
  private async pageOf(row: GenerationRow): Promise<string> {
    if (row.status !== 'completed' || !row.presentation_key) throw new DomainError('NOT_FOUND', 'This presentation is not ready yet.');
    if (!row.plan) return this.presentations.getText(row.presentation_key);
    const plan = applyCoachEdits(row.plan, await this.generations.coachEdits(row.user_id));
    return renderPresentation(plan, row.planner ?? 'offline', row.completed_at ?? row.updated_at);
  }

  private async readable(generationId: string, reader: Reader): Promise<GenerationRow> {
    const row = await this.generations.find(generationId);
    if (!row || (reader.role === 'client' && row.user_id !== reader.userId)) {
      throw new DomainError('NOT_FOUND', 'No such DITL generation.');
    }
    return row;
  }
}
