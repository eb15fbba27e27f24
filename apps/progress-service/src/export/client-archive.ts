import { PassThrough, pipeline, Readable } from 'node:stream';
import type { AuthUser, ExportedDitl, ExportedInvestor, ExportedLead } from '@spark/contracts';
import archiver, { type Archiver } from 'archiver';
import { csvLine, csvRow, toCsv } from './csv';
import type { ExportRepository, ExportSpark } from './export.repository';
import { exportReadme } from './readme';

/** What other services hold about the client, asked over the bus when the archive is built. */
export interface OtherServicesData {
  account: AuthUser;
  lead: ExportedLead;
  investor: ExportedInvestor;
  /** The newest finished Day in the Life, or nulls. */
  ditl: ExportedDitl;
  /** The finished Day in the Life before `before`, asked for only when the archive takes it. */
  olderDitl(before: string): Promise<ExportedDitl>;
}

export interface ClientArchiveSources {
  repository: ExportRepository;
  openFile(key: string): Promise<Readable>;
  otherServices: OtherServicesData;
}

const SPARK_COLUMNS = ['id', 'created_at', 'counted_on', 'spark_type', 'file_type', 'note', 'file'] as const;
const EVOLUTION_COLUMNS = ['evolution_number', 'evolution_start_date', 'evolution_end_date', 'status'] as const;
const STREAK_COLUMNS = ['day', 'sparks', 'pause_day'] as const;

export const sparkFileName = (spark: ExportSpark) => {
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(spark.file_key)?.[1] ?? 'bin';
  return `sparks/${spark.created_at.slice(0, 10)}_${spark.id}.${extension}`;
};

/**
 * The client's export as a ZIP stream. Files are added one at a time, each S3 object opened only when
 * the archiver is ready for it, so memory holds the archiver's and the reader's buffers and one page of
 * spark rows, whatever the total size. Photos are stored, not deflated: they are compressed already.
 */
export function clientArchive(userId: string, sources: ClientArchiveSources): Readable {
  const archive = archiver('zip', { zlib: { level: 6 } });
  void fill(archive, userId, sources).then(
    () => archive.finalize(),
    (error: unknown) => archive.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  // archiver's streams come from the readable-stream package; uploaders check for Node's own Readable.
  // pipeline passes a failure on, so the upload is aborted rather than completed short.
  return pipeline(archive, new PassThrough(), () => undefined);
}

async function fill(archive: Archiver, userId: string, { repository, openFile, otherServices }: ClientArchiveSources): Promise<void> {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const progress = await repository.progress(userId);
  archive.append(exportReadme(new Date().toISOString()), { name: 'README.txt' });
  archive.append(json({ account: otherServices.account, progress: progress ?? null }), { name: 'profile.json' });
  archive.append(json((await repository.onboarding(userId)) ?? null), { name: 'onboarding.json' });
  archive.append(json(await repository.coachNotes(userId)), { name: 'coach-notes.json' });
  archive.append(json(otherServices.lead), { name: 'lead.json' });
  archive.append(json(otherServices.investor), { name: 'donation.json' });
  archive.append(json(await repository.reminders(userId)), { name: 'reminders.json' });
  await appendDitl(archive, otherServices);
  const evolutions = progress ? [progress] : [];
  archive.append(toCsv(evolutions, EVOLUTION_COLUMNS), { name: 'evolutions.csv' });
  archive.append(json(evolutions.map((row) => Object.fromEntries(EVOLUTION_COLUMNS.map((column) => [column, row[column]])))), { name: 'evolutions.json' });
  const streak = await repository.streakDays(userId);
  archive.append(toCsv(streak, STREAK_COLUMNS), { name: 'streak-history.csv' });
  archive.append(json(streak), { name: 'streak-history.json' });

  // A file gone from storage (its spark being deleted meanwhile, say) leaves its row without a file rather
  // than failing every later export of the client.
  // Each spark this pass read, and whether its file went in. The tables list these sparks and no others: one
  // recorded meanwhile (an offline capture dated before this pass's cursor, say) would name a file the ZIP lacks.
  const fileWritten = new Map<string, boolean>();
  for await (const spark of repository.sparks(userId)) {
    const file = await openFile(spark.file_key).catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
      return undefined;
    });
    fileWritten.set(spark.id, file !== undefined);
    if (!file) continue;
    const name = sparkFileName(spark);
    const entered = entryWritten(archive, name);
    archive.append(file, { name, store: spark.spark_type === 'photo', date: new Date(spark.created_at) });
    await entered;
  }
  // The spark tables are a second pass over the rows, written as they are read: only their ids are kept, not the rows.
  const rows = () => sparkRows(repository, userId, fileWritten);
  archive.append(Readable.from(sparksCsv(rows()), { objectMode: false }), { name: 'sparks.csv' });
  archive.append(Readable.from(sparksJson(rows()), { objectMode: false }), { name: 'sparks.json' });
}

async function* sparkRows(repository: ExportRepository, userId: string, fileWritten: ReadonlyMap<string, boolean>): AsyncGenerator<Record<string, unknown>> {
  for await (const spark of repository.sparks(userId)) {
    const { id, created_at, counted_on, spark_type, file_type, note } = spark;
    const written = fileWritten.get(id);
    if (written === undefined) continue;
    yield { id, created_at, counted_on, spark_type, file_type, note, file: written ? sparkFileName(spark) : null };
  }
}

async function* sparksCsv(rows: AsyncIterable<Record<string, unknown>>): AsyncGenerator<Buffer> {
  yield Buffer.from(csvLine(SPARK_COLUMNS));
  for await (const row of rows) yield Buffer.from(csvRow(row, SPARK_COLUMNS));
}

async function* sparksJson(rows: AsyncIterable<Record<string, unknown>>): AsyncGenerator<Buffer> {
  let separator = '[\n  ';
  for await (const row of rows) {
    yield Buffer.from(separator + JSON.stringify(row));
    separator = ',\n  ';
  }
  yield Buffer.from(separator === '[\n  ' ? '[]\n' : '\n]\n');
}

/**
 * The newest finished Day in the Life where it always was, then every finished one (the newest too) under
 * `ditl/generations/`, with the answers and plan it came from. One page is asked for once the last is written.
 */
async function appendDitl(archive: Archiver, otherServices: OtherServicesData): Promise<void> {
  let page = otherServices.ditl;
  archive.append(`${JSON.stringify(page.generation, null, 2)}\n`, { name: 'ditl/generation.json' });
  if (page.html !== null) archive.append(page.html, { name: 'ditl/presentation.html' });
  while (page.generation) {
    const folder = `ditl/generations/${page.generation.updatedAt.slice(0, 10)}_${page.generation.generationId}`;
    const { generation, answers, plan } = page;
    archive.append(`${JSON.stringify({ generation, answers, plan }, null, 2)}\n`, { name: `${folder}/generation.json` });
    if (page.html !== null) {
      const entered = entryWritten(archive, `${folder}/presentation.html`);
      archive.append(page.html, { name: `${folder}/presentation.html` });
      await entered;
    }
    if (!page.next) break;
    page = await otherServices.olderDitl(page.generation.generationId);
  }
}

/** Resolves once the archiver has written the entry `name`: the next file is opened only then. */
function entryWritten(archive: Archiver, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: { name: string }) => {
      if (entry.name !== name) return;
      archive.off('entry', onEntry).off('error', reject);
      resolve();
    };
    archive.on('entry', onEntry).once('error', reject);
  });
}
