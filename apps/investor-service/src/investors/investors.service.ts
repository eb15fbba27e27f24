import { randomUUID } from 'node:crypto';
import type { GenerateAccessCodeResponse, Investor, InvestorPage, PayloadOf, ResponseOf } from '@spark/contracts';
import { DomainError } from '@spark/messaging';
import { decodeCursor, encodeCursor } from '@spark/persistence';
import { newAccessCode } from './access-code';
import type { InvestorRow, InvestorsRepository } from './investors.repository';

export function toInvestor(row: InvestorRow): Investor {
  return {
    id: row.id,
    email: row.email,
    interest: row.interest,
    createdAt: row.created_at.toISOString(),
    lastEmailSentAt: row.last_email_sent_at?.toISOString() ?? null,
    accessCode: row.access_code,
    accessCount: row.access_count ?? 0,
    accessedAt: row.accessed_at?.toISOString() ?? null,
  };
}

export const invalidAccessCode = () => new DomainError('FORBIDDEN', 'Invalid access code. Please check your code and try again.');

export class InvestorsService {
  constructor(
    private readonly investors: InvestorsRepository,
    private readonly clock: () => Date = () => new Date(),
    private readonly generateCode: () => string = newAccessCode,
  ) {}

  /** The public deck and early-access forms: a known e-mail is ignored, as the spec says of duplicates. */
  async register(request: PayloadOf<'investor.register'>): Promise<ResponseOf<'investor.register'>> {
    const { row, created } = await this.investors.insert({ id: randomUUID(), email: request.email, interest: request.interest ?? null });
    return { investor: toInvestor(row), created };
  }

  /** The admin's Add Investor: a known e-mail is an error the modal shows. */
  async create(request: PayloadOf<'investor.create'>): Promise<Investor> {
    const { row, created } = await this.investors.insert({ id: randomUUID(), email: request.email, interest: request.interest ?? null });
    if (!created) throw new DomainError('CONFLICT', 'Failed to create investor. Email may already exist.');
    return toInvestor(row);
  }

  async list(request: PayloadOf<'investor.list'>): Promise<InvestorPage> {
    const { rows, total } = await this.investors.page(decodeCursor(request.cursor), request.limit + 1);
    const items = rows.slice(0, request.limit);
    const last = items.at(-1);
    return {
      items: items.map(toInvestor),
      nextCursor: rows.length > request.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
      total,
    };
  }

  /** Idempotent: an investor keeps one code, and asking again answers it with alreadyExists. */
  async generateAccessCode(request: PayloadOf<'investor.generate-access-code'>): Promise<GenerateAccessCodeResponse> {
    const investor = await this.investors.findById(request.investorId);
    if (!investor) throw new DomainError('NOT_FOUND', 'No such investor.');
    if (investor.access_code) return { accessCode: investor.access_code, alreadyExists: true };
    const { accessCode, created } = await this.investors.insertAccessCode(investor.id, this.generateCode());
    return { accessCode, alreadyExists: !created };
  }

  /** A valid code is counted (access_count, accessed_at); the gateway then signs the deck's URL. */
  async redeemAccessCode(request: PayloadOf<'investor.redeem-access-code'>): Promise<ResponseOf<'investor.redeem-access-code'>> {
    const access = await this.investors.recordAccess(request.accessCode, this.clock());
    if (!access) throw invalidAccessCode();
    return { investorId: access.investor_id, accessCount: access.access_count };
  }
}
