import { CreateHandledRequests1764200000000, ServiceRole1764700000000 } from '@spark/persistence';
import { ConfirmOutboxJobs1764100000000, CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateAuth1763800000100 } from './1763800000100-create-auth';
import { CreateAuditEvents1763800000190 } from './1763800000190-create-audit-events';
import { CodeGuesses1764000000100 } from './1764000000100-code-guesses';
import { AbsoluteSessionLifetime1764000000200 } from './1764000000200-absolute-session-lifetime';
import { UserEmailPrefixIndex1764000000300 } from './1764000000300-user-email-prefix-index';
import { AccountDeletions1764400000100 } from './1764400000100-account-deletions';
import { AuditErasureBound1764600000100 } from './1764600000100-audit-erasure-bound';
import { AuditEventsNotDeletable1764700000100 } from './1764700000100-audit-events-not-deletable';
import { RevocationMarkers1764800000100 } from './1764800000100-revocation-markers';
import { ExpiredSignInRows1765000000100 } from './1765000000100-expired-sign-in-rows';
import { SessionRenewalBudget1765000000200 } from './1765000000200-session-renewal-budget';
import { DeletionPartJobs1765000000310 } from './1765000000310-deletion-part-jobs';
import { UnfinishedDeletionsIndex1765000000320 } from './1765000000320-unfinished-deletions-index';
import { InvitationKeys1765100000100 } from './1765100000100-invitation-keys';
import { InvitationKeyLapse1765200000100 } from './1765200000100-invitation-key-lapse';
import { DeletionConfirmationReplay1765600000100 } from './1765600000100-deletion-confirmation-replay';

export const authMigrations = [
  CreateOutbox1763800000000,
  CreateAuth1763800000100,
  CreateAuditEvents1763800000190,
  CodeGuesses1764000000100,
  AbsoluteSessionLifetime1764000000200,
  UserEmailPrefixIndex1764000000300,
  ConfirmOutboxJobs1764100000000,
  CreateHandledRequests1764200000000,
  AccountDeletions1764400000100,
  AuditErasureBound1764600000100,
  ServiceRole1764700000000,
  AuditEventsNotDeletable1764700000100,
  RevocationMarkers1764800000100,
  ExpiredSignInRows1765000000100,
  SessionRenewalBudget1765000000200,
  DeletionPartJobs1765000000310,
  UnfinishedDeletionsIndex1765000000320,
  InvitationKeys1765100000100,
  InvitationKeyLapse1765200000100,
  DeletionConfirmationReplay1765600000100,
];
