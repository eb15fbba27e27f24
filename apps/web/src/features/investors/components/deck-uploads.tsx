import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Card } from '../../../ui/card';
import { toast } from '../../../ui/toaster';
import { investorsApi } from '../api/investors-api';

const files = [
  { file: 'full', label: 'Full deck', hint: 'Downloaded with an access code (PDF).' },
  { file: 'preview', label: 'Deck preview', hint: 'Embedded on /donate for everyone (PDF or image).' },
] as const;

/** Lets the admin replace the deck and its public preview. */
export function DeckUploads() {
  const [busy, setBusy] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: ({ file, upload }: { file: 'full' | 'preview'; upload: File }) => investorsApi.uploadDeck(file, upload),
    onMutate: ({ file }) => setBusy(file),
    onSettled: () => setBusy(null),
    onSuccess: () => toast.success('Deck uploaded'),
    onError: (error) => toast.error('Upload failed', { description: error.message }),
  });
  return (
    <Card>
      <h3 className="text-lg font-semibold text-ink-950">Investor deck</h3>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {files.map(({ file, label, hint }) => (
          <label key={file} className="block rounded-xl border border-dashed border-slate-300 p-4 text-sm">
            <span className="font-medium text-ink-900">{busy === file ? 'Uploading...' : label}</span>
            <span className="mt-1 block text-slate-600">{hint}</span>
            <input
              type="file"
              accept="application/pdf,image/png,image/jpeg,image/webp"
              className="mt-3 block w-full text-sm text-slate-600 file:mr-3 file:cursor-pointer file:rounded-lg file:border-0 file:bg-spark-50 file:px-4 file:py-2 file:font-semibold file:text-spark-800 hover:file:bg-spark-100"
              onChange={(event) => {
                const chosen = event.target.files?.[0];
                if (chosen) upload.mutate({ file, upload: chosen });
                event.target.value = '';
              }}
            />
          </label>
        ))}
      </div>
    </Card>
  );
}
