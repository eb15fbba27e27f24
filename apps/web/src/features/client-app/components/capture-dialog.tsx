import { useRef, useState } from 'react';
import { useObjectUrl } from '../../../lib/use-object-url';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { toast } from '../../../ui/toaster';
import type { CaptureOutcome } from '../hooks/use-capture';

interface CaptureDialogProps {
  open: boolean;
  /** Quick mode: the file chosen on the home screen. */
  initialFile: File | null;
  uploading: boolean;
  onCapture: (file: File, note: string) => Promise<CaptureOutcome>;
  onClose: () => void;
}

const NO_FILE_TOAST = 'capture-no-file';

/** "Take Photo" or "Upload File", a preview, a note, then "Capture Spark". Stays open on failure. */
export function CaptureDialog({ open, initialFile, uploading, onCapture, onClose }: CaptureDialogProps) {
  const [file, setFile] = useState<File | null>(initialFile);
  const [note, setNote] = useState('');
  const cameraInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // Opening starts from the file it was opened with; closing forgets the note (state adjusted during render, as
  // React advises, instead of an effect that would draw the stale dialog first).
  const [shown, setShown] = useState({ open, initialFile });
  if (shown.open !== open || shown.initialFile !== initialFile) {
    setShown({ open, initialFile });
    if (open) setFile(initialFile);
    else setNote('');
  }

  const preview = useObjectUrl(file?.type.startsWith('image/') ? file : null);

  async function submit() {
    if (!file) {
      toast.error('No file selected', { id: NO_FILE_TOAST, description: 'Please select a photo or file to capture' });
      return;
    }
    if ((await onCapture(file, note)) !== 'failed') onClose();
  }

  const choose = (input: HTMLInputElement | null) => {
    const chosen = input?.files?.[0] ?? null;
    // The file answers the error: left up, it would still say none was chosen beside the preview and the capture's toast.
    if (chosen) toast.dismiss(NO_FILE_TOAST);
    setFile(chosen);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && !uploading && onClose()} title={initialFile ? 'Quick Capture' : 'Capture Your Spark'}>
      <input
        ref={cameraInput}
        type="file"
        accept="image/*"
        capture="environment"
        className="hidden"
        data-testid="camera-input"
        onChange={(event) => choose(event.currentTarget)}
      />
      <input
        ref={fileInput}
        type="file"
        accept="image/*,video/*"
        className="hidden"
        data-testid="file-input"
        onChange={(event) => choose(event.currentTarget)}
      />
      {!file ? (
        <div className="grid grid-cols-2 gap-3">
          <PickButton icon="camera" label="Take Photo" onClick={() => cameraInput.current?.click()} />
          <PickButton icon="upload" label="Upload File" onClick={() => fileInput.current?.click()} />
        </div>
      ) : (
        <div className="space-y-4">
          {preview ? (
            <img src={preview} alt="Preview of your spark" className="max-h-64 w-full rounded-xl bg-slate-100 object-contain" />
          ) : (
            <p className="rounded-xl bg-slate-100 px-4 py-6 text-center text-sm text-slate-700">{file.name}</p>
          )}
          <button
            type="button"
            className="text-sm font-medium text-ink-700 underline-offset-2 hover:underline"
            onClick={() => setFile(null)}
            disabled={uploading}
          >
            Choose a different file
          </button>
        </div>
      )}
      <label className="mt-4 block text-sm font-medium text-slate-800" htmlFor="spark-note">
        Note <span className="font-normal text-slate-500">(optional)</span>
      </label>
      <textarea
        id="spark-note"
        value={note}
        onChange={(event) => setNote(event.target.value)}
        maxLength={2000}
        rows={3}
        placeholder="What sparked this moment?"
        className="mt-1 w-full rounded-xl border border-slate-300 px-3 py-2 text-base focus:border-spark-500 focus:outline-none"
      />
      <div className="mt-5 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose} disabled={uploading}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} disabled={uploading}>
          {uploading ? 'Uploading...' : 'Capture Spark'}
        </Button>
      </div>
    </Dialog>
  );
}

const icons = {
  camera: 'M4 7h3l2-3h6l2 3h3v13H4V7Zm8 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z',
  upload: 'M12 3l5 5h-3v6h-4V8H7l5-5ZM5 16h2v3h10v-3h2v5H5v-5Z',
};

function PickButton({ icon, label, onClick }: { icon: keyof typeof icons; label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex flex-col items-center gap-2 rounded-2xl border-2 border-dashed border-slate-300 px-4 py-8 font-semibold text-ink-900 transition-colors hover:border-spark-500 hover:bg-spark-50 focus-visible:outline-3 focus-visible:outline-spark-500"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-8 text-spark-600">
        <path fill="currentColor" d={icons[icon]} />
      </svg>
      {label}
    </button>
  );
}
