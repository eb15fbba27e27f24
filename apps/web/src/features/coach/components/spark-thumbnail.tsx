import type { Spark } from '@spark/contracts';
import { formatDateTime } from '../api/coach-api';

/** A client's spark as a square that opens its file: the photo itself, or "Open file" for anything else. */
export function SparkThumbnail({ spark }: { spark: Spark }) {
  return (
    <a
      href={spark.fileUrl}
      target="_blank"
      rel="noreferrer"
      className="block overflow-hidden rounded-lg bg-slate-100"
      title={spark.note ?? formatDateTime(spark.createdAt)}
    >
      {spark.fileType.startsWith('image/') ? (
        <img
          src={spark.fileUrl}
          alt={spark.note ?? `Spark of ${formatDateTime(spark.createdAt)}`}
          loading="lazy"
          className="aspect-square w-full object-cover"
        />
      ) : (
        <span className="flex aspect-square items-center justify-center text-xs text-slate-600">Open file</span>
      )}
    </a>
  );
}
