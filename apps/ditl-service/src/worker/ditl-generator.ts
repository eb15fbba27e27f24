import type { JobRequest } from '@spark/jobs';
import type { Logger } from '@spark/logging';
import type { GenerationsRepository } from '../generations/generations.repository';
import type { DitlPlanner, PlannedPresentation } from '../planner/planner';
import { renderPresentation } from '../planner/presentation-html';

/** Writes a finished presentation, or deletes one nobody may read; the S3 adapter in production. */
export interface PresentationStore {
  put(input: { key: string; body: string; contentType: string }): Promise<unknown>;
  delete(key: string): Promise<void>;
}

export interface DitlGeneratorOptions {
  /** Model calls per delivery before the generation is marked failed. */
  attempts: number;
  /** Back-off before the second call; doubled for each later one. */
  backoffMs: number;
}

/** Every model call failed (timeouts, invalid output): retrying the job would not help. */
export class GenerationFailedError extends Error {
  constructor(
    readonly generationId: string,
    cause: unknown,
  ) {
    super(`DITL ${generationId} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'GenerationFailedError';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Every presentation of a client lives under this prefix. */
export const presentationPrefix = (userId: string) => `ditl/${userId}/`;
export const presentationKey = (userId: string, generationId: string) => `${presentationPrefix(userId)}${generationId}.html`;

/**
 * Runs one generation from queued to completed. Safe to run twice for the same id (a job taken
 * over after its worker died): it re-checks the status first, the S3 key is fixed, and only the
 * first completion is recorded and e-mailed.
 */
export class DitlGenerator {
  constructor(
    private readonly generations: GenerationsRepository,
    private readonly planner: DitlPlanner,
    private readonly store: PresentationStore,
    private readonly options: DitlGeneratorOptions,
    private readonly logger: Logger,
    private readonly onQueuedMail: () => void,
  ) {}

  async run(generationId: string): Promise<void> {
    const row = await this.generations.claim(generationId);
    if (!row) {
      this.logger.info({ generationId }, 'DITL already finished; delivery ignored');
      return;
    }
    await this.generations.reportProgress(generationId, 25);
    const planned = await this.planWithRetries(generationId, row.answers);
    await this.generations.reportProgress(generationId, 75);
    const key = presentationKey(row.user_id, generationId);
    await this.store.put({ key, body: renderPresentation(planned.plan, planned.planner, new Date()), contentType: 'text/html; charset=utf-8' });
    await this.generations.reportProgress(generationId, 90);
    // A generation asked for before the gateway stated its requests has nothing the notifier would send it with.
    const mail: JobRequest | undefined = row.requested
      ? { queue: 'mail', name: 'ditl-ready', data: { generationId, email: row.email, firstName: row.answers.firstName, requested: row.requested } }
      : undefined;
    const completedNow = await this.generations.complete(generationId, planned, key, mail);
    if (completedNow && mail) this.onQueuedMail();
    // The account was erased while the page was written: its erasure has already swept the client's pages.
    if (!completedNow && !(await this.generations.exists(generationId))) {
      await this.store.delete(key);
      this.logger.info({ generationId }, 'DITL of an erased account; its page deleted');
      return;
    }
    // The checks' names only: their messages quote the client's answers, and account erasure does not reach the logs.
    const rejectedChecks = planned.rejectedViolations?.map((violation) => violation.check);
    this.logger.info({ generationId, planner: planned.planner, completedNow, rejectedChecks, modelAnswerCutOff: planned.modelAnswerCutOff }, 'DITL generated');
  }

  private async planWithRetries(generationId: string, answers: Parameters<DitlPlanner['plan']>[0]): Promise<PlannedPresentation> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      try {
        return await this.planner.plan(answers);
      } catch (error) {
        lastError = error;
        this.logger.warn({ generationId, attempt, err: error }, 'DITL model call failed');
        if (refusedForGood(error)) break;
        if (attempt < this.options.attempts) await sleep(this.options.backoffMs * 2 ** (attempt - 1));
      }
    }
    await this.generations.fail(generationId, lastError instanceof Error ? lastError.message : String(lastError));
    throw new GenerationFailedError(generationId, lastError);
  }
}

/**
 * A 4xx from the model's API that asking again cannot change (a bad request, a model or key without access), as
 * opposed to a timeout, a conflict or a rate limit (408, 409, 429) or a 5xx, which are worth another try.
 */
function refusedForGood(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}
