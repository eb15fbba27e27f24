import { CreateHandledRequests1764200000000, ServiceRole1764700000000 } from '@spark/persistence';
import { ConfirmOutboxJobs1764100000000, CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateUserProgress1763800000020 } from './1763800000020-create-user-progress';
import { CreateSparksAndNotes1763800000021 } from './1763800000021-create-sparks-and-notes';
import { CoachEvolutionPresets1763800000022 } from './1763800000022-coach-evolution-presets';
import { KnownTimeZone1763800000023 } from './1763800000023-known-time-zone';
import { SparkFileSizes1763800000024 } from './1763800000024-spark-file-sizes';
import { RestAndPauseDays1763800000025 } from './1763800000025-rest-and-pause-days';
import { Reminders1764400000026 } from './1764400000026-reminders';
import { DataExports1764400000027 } from './1764400000027-data-exports';
import { AttentionAnchorIndex1764400000028 } from './1764400000028-attention-anchor-index';
import { ClientCount1764400000029 } from './1764400000029-client-count';
import { ErasedUsers1765000000030 } from './1765000000030-erased-users';
import { SparkLocalDate1765100000031 } from './1765100000031-spark-local-date';
import { RemindersFollowKnownZone1765500000032 } from './1765500000032-reminders-follow-known-zone';
import { PrivateNotesKeysetIndex1765800000033 } from './1765800000033-private-notes-keyset-index';

export const progressMigrations = [
  CreateOutbox1763800000000,
  CreateUserProgress1763800000020,
  CreateSparksAndNotes1763800000021,
  CoachEvolutionPresets1763800000022,
  KnownTimeZone1763800000023,
  SparkFileSizes1763800000024,
  RestAndPauseDays1763800000025,
  ConfirmOutboxJobs1764100000000,
  CreateHandledRequests1764200000000,
  Reminders1764400000026,
  DataExports1764400000027,
  AttentionAnchorIndex1764400000028,
  ClientCount1764400000029,
  ServiceRole1764700000000,
  ErasedUsers1765000000030,
  SparkLocalDate1765100000031,
  RemindersFollowKnownZone1765500000032,
  PrivateNotesKeysetIndex1765800000033,
];
