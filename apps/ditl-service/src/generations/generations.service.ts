import { randomUUID } from 'node:crypto';
import { type DitlStatusResponse, type GenerateDitlResponse, type PayloadOf, waitPhrase } from '@spark/contracts';
import type { OutboxRelay } from '@spark/jobs';
import { DomainError } from '@spark/messaging';
import type { GenerationRow, GenerationsRepository } from './generations.repository';

type Reader = PayloadOf<'ditl.check-status'>['reader'];

/** Reads the stored presentation; the S3 adapter in production. */
export interface PresentationReader {
  getText(key: string): Promise<string>;
}

// Longer than any healthy generation takes; an older unfinished one is presumed stuck and not reused.
const UNFINISHED_REUSE_MINUTES = 10;
// The budget counts every generation asked for in this rolling window, finished, failed or running.
const BUDGET_WINDOW_HOURS = 24;

const budgetSpent = (budget: number, retryAfterSeconds: number) =>
  new DomainError(
    'RATE_LIMITED',
    `You have created ${budget} Day in the Life presentations in the last 24 hours, the most for one day. You can create another in ${waitPhrase(retryAfterSeconds)}.`,
    { retryAfterSeconds },
  );

export const presentationPath = (generationId: string) => `/api/ditl/generations/${generationId}/presentation`;

export class GenerationsService {
  constructor(
    private readonly generations: GenerationsRepository,
    private readonly outbox: Pick<OutboxRelay, 'kick'>,
    private readonly presentations: PresentationReader,
    /** Generations one user may ask for per 24 hours: each is a model call (`DITL_DAILY_GENERATIONS`). */
    private readonly dailyBudget: number,
  ) {}

  /**
   * Stores the request as queued and queues its job through the outbox. A repeat while the user's
   * last request is still in progress answers that one: a double submit never pays for two model runs,
   * nor counts twice against the daily budget. Over the budget: RATE_LIMITED (429) saying when.
   */
  async generate(request: PayloadOf<'ditl.generate'>): Promise<GenerateDitlResponse> {
    const outcome = await this.generations.forUser(request.userId, async (generations) => {
      const inProgress = await generations.findUnfinished(request.userId, UNFINISHED_REUSE_MINUTES);
      if (inProgress) return { generationId: inProgress, created: false };
      const recent = await generations.createdWithin(request.userId, BUDGET_WINDOW_HOURS);
      if (recent.count >= this.dailyBudget) throw budgetSpent(this.dailyBudget, Math.max(1, recent.secondsUntilOneLeaves));
      const generationId = randomUUID();
      await generations.insertWithJob(
        { id: generationId, userId: request.userId, email: request.email, leadId: request.leadId ?? null, answers: request.answers },
        { queue: 'ditl', name: 'generate-ditl', data: { generationId } },
      );
      return { generationId, created: true };
    });
    if (outcome.created) this.outbox.kick();
    return { generationId: outcome.generationId };
  }

  async checkStatus({ generationId, reader }: PayloadOf<'ditl.check-status'>): Promise<DitlStatusResponse> {
    const row = await this.readable(generationId, reader);
    return {
      generationId: row.id,
      status: row.status,
      progress: row.progress,
      presentationUrl: row.status === 'completed' ? presentationPath(row.id) : null,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  async getPresentation({ generationId, reader }: PayloadOf<'ditl.get-presentation'>): Promise<{ html: string }> {
    const row = await this.readable(generationId, reader);
    if (row.status !== 'completed' || !row.presentation_key) throw new DomainError('NOT_FOUND', 'This presentation is not ready yet.');
    return { html: await this.presentations.getText(row.presentation_key) };
  }

  // A client sees only its own generations; someone else's answers NOT_FOUND, so ids cannot be probed.
  private async readable(generationId: string, reader: Reader): Promise<GenerationRow> {
    const row = await this.generations.find(generationId);
    if (!row || (reader.role === 'client' && row.user_id !== reader.userId)) {
      throw new DomainError('NOT_FOUND', 'No such DITL generation.');
    }
    return row;
  }
}
