export interface DitlSlide {
  src: string;
  alt: string;
  width: number;
  height: number;
}

// The slides folder lists its images in manifest.json, so adding a slide needs no code change.
export const ditlSlidesFolder = 'ditl-slides';

interface ManifestEntry {
  file: string;
  alt: string;
  width: number;
  height: number;
}

function isManifestEntry(value: unknown): value is ManifestEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.file === 'string' && typeof entry.alt === 'string' && typeof entry.width === 'number' && typeof entry.height === 'number';
}

export async function fetchDitlSlides(): Promise<DitlSlide[]> {
  const response = await fetch(`/${ditlSlidesFolder}/manifest.json`);
  if (!response.ok) return [];
  const manifest: unknown = await response.json();
  const entries = typeof manifest === 'object' && manifest !== null ? (manifest as Record<string, unknown>).slides : undefined;
  if (!Array.isArray(entries)) return [];
  return entries.filter(isManifestEntry).map((entry) => ({
    src: `/${ditlSlidesFolder}/${entry.file}`,
    alt: entry.alt,
    width: entry.width,
    height: entry.height,
  }));
}
