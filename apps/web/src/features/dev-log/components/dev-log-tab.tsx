import { logImageExtensions, postTitleOf, resolveWikiImages, type UploadedLogImage, wikiImageNames } from '@spark/contracts';
import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { fieldClasses } from '../../../ui/input';
import { toast } from '../../../ui/toaster';
import { devLogApi } from '../api/dev-log-api';
import { MarkdownView } from './markdown-view';

// A preview's `postId` is sent with each press of Publish, so a press after a lost answer cannot publish it twice.
type Stage = { step: 'edit' } | { step: 'preview'; markdown: string; images: UploadedLogImage[]; postId: string } | { step: 'published'; postUrl: string };

const fileInputClasses =
  'block w-full text-sm text-slate-600 file:mr-3 file:cursor-pointer file:rounded-lg file:border-0 file:bg-spark-50 file:px-4 file:py-2 file:font-semibold file:text-spark-800 hover:file:bg-spark-100';

const isMarkdown = (file: File) => /\.(md|markdown)$/i.test(file.name);
const isImage = (file: File) => logImageExtensions.some((extension) => file.name.toLowerCase().endsWith(`.${extension}`));

/** Checks what the publisher refuses (docs/product.md §5); the first problem, or undefined. */
function problemOf(markdown: string, images: readonly File[], markdownFiles: number): { title: string; detail: string } | undefined {
  if (markdownFiles > 1) return { title: 'Multiple markdown files', detail: 'Upload one markdown file per entry.' };
  if (!markdown.trim()) return { title: 'No content', detail: 'Write an entry or upload a markdown file.' };
  const missing = wikiImageNames(markdown).filter((name) => !images.some((image) => image.name === name));
  if (missing.length > 0) return { title: 'Missing images', detail: `Upload ${missing.join(', ')}` };
  return undefined;
}

/** The coach dashboard's Developer's Log tab (admins only): files or entry -> processed -> preview -> published. */
export default function DevLogTab() {
  const [files, setFiles] = useState<File[]>([]);
  const [entry, setEntry] = useState('');
  const [mode, setMode] = useState('upload');
  const [stage, setStage] = useState<Stage>({ step: 'edit' });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ title: string; detail: string }>();

  const reset = () => {
    setFiles([]);
    setEntry('');
    setProblem(undefined);
    setStage({ step: 'edit' });
  };

  const process = async () => {
    setProblem(undefined);
    const markdownFiles = mode === 'upload' ? files.filter(isMarkdown) : [];
    const markdown = mode === 'upload' ? ((await markdownFiles[0]?.text()) ?? '') : entry;
    const images = files.filter(isImage);
    const found = problemOf(markdown, images, markdownFiles.length);
    if (found) return setProblem(found);
    setBusy(true);
    try {
      const used = images.filter((image) => wikiImageNames(markdown).includes(image.name));
      const uploaded = await Promise.all(used.map((image) => devLogApi.uploadImage(image)));
      setStage({ step: 'preview', markdown, images: uploaded, postId: crypto.randomUUID() });
    } catch (error) {
      setProblem({
        title: error instanceof ApiError && error.status === 401 ? 'Not authenticated' : 'Processing failed',
        detail: error instanceof Error ? error.message : '',
      });
    } finally {
      setBusy(false);
    }
  };

  const publish = async () => {
    if (stage.step !== 'preview') return toast.error('Nothing to publish');
    setBusy(true);
    try {
      const images = stage.images.map(({ name, key }) => ({ name, key }));
      const published = await devLogApi.publish({ markdown: stage.markdown, images, postId: stage.postId });
      setStage({ step: 'published', postUrl: published.postUrl });
      toast.success('Published', { description: postTitleOf(stage.markdown) });
    } catch (error) {
      toast.error(error instanceof ApiError && error.status === 401 ? 'Not authenticated' : 'Publishing failed', {
        description: error instanceof Error ? error.message : undefined,
      });
    } finally {
      setBusy(false);
    }
  };

  if (stage.step === 'published') {
    return (
      <Card className="space-y-4">
        <h2 className="text-xl font-semibold text-ink-950">Published</h2>
        <a className="font-medium text-spark-700 underline" href={stage.postUrl} target="_blank" rel="noreferrer">
          Read it at {stage.postUrl}
        </a>
        <div>
          <Button onClick={reset}>Write another entry</Button>
        </div>
      </Card>
    );
  }
  if (stage.step === 'preview') {
    const urlOf = new Map(stage.images.map((image) => [image.name, image.previewUrl]));
    return (
      <Card className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-xl font-semibold text-ink-950">Preview: {postTitleOf(stage.markdown)}</h2>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setStage({ step: 'edit' })} disabled={busy}>
              Edit
            </Button>
            <Button onClick={() => void publish()} disabled={busy}>
              {busy ? 'Publishing...' : 'Publish'}
            </Button>
          </div>
        </div>
        <div className="rounded-xl border border-slate-200 p-6">
          <MarkdownView markdown={resolveWikiImages(stage.markdown, (name) => urlOf.get(name))} />
        </div>
      </Card>
    );
  }
  return (
    <Card className="space-y-5">
      <div>
        <h2 className="text-xl font-semibold text-ink-950">Developer's Log</h2>
        <p className="text-sm text-slate-600">Publish an entry to the public log at /log. Images are referenced as ![[image.png]].</p>
      </div>
      <Tabs.Root value={mode} onValueChange={setMode}>
        <Tabs.List className="inline-flex rounded-xl bg-slate-100 p-1" aria-label="Publisher">
          {[
            ['upload', 'Upload Files'],
            ['entry', 'New Entry'],
          ].map(([value, label]) => (
            <Tabs.Trigger
              key={value}
              value={value ?? ''}
              className="rounded-lg px-4 py-2 text-sm font-medium text-slate-700 data-[state=active]:bg-white data-[state=active]:text-ink-950 data-[state=active]:shadow"
            >
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="upload" className="mt-4">
          <label className="block rounded-xl border border-dashed border-slate-300 p-6 text-sm text-slate-600">
            One markdown file and the images it references (png, jpg, jpeg, gif, webp).
            <input
              type="file"
              multiple
              aria-label="Markdown and image files"
              accept=".md,.markdown,.png,.jpg,.jpeg,.gif,.webp"
              className={`mt-3 ${fileInputClasses}`}
              onChange={(event) => setFiles([...(event.target.files ?? [])])}
            />
          </label>
          {files.length > 0 && <p className="mt-2 text-sm text-slate-600">{files.map((file) => file.name).join(', ')}</p>}
        </Tabs.Content>
        <Tabs.Content value="entry" className="mt-4 space-y-3">
          <textarea
            aria-label="Entry markdown"
            rows={12}
            className={fieldClasses}
            placeholder={'# Title\n\nWhat we built this week...'}
            value={entry}
            onChange={(event) => setEntry(event.target.value)}
          />
          <label className="block text-sm text-slate-600">
            Images for this entry
            <input
              type="file"
              multiple
              aria-label="Entry images"
              accept=".png,.jpg,.jpeg,.gif,.webp"
              className={`mt-1 ${fileInputClasses}`}
              onChange={(event) => setFiles([...(event.target.files ?? [])])}
            />
          </label>
        </Tabs.Content>
      </Tabs.Root>
      {problem && (
        <div role="alert" className="rounded-xl bg-red-50 p-4 text-sm text-red-900">
          <p className="font-semibold">{problem.title}</p>
          {problem.detail && <p>{problem.detail}</p>}
        </div>
      )}
      <Button onClick={() => void process()} disabled={busy}>
        {busy ? 'Processing...' : 'Process & Preview'}
      </Button>
    </Card>
  );
}
