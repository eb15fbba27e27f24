import { randomUUID } from 'node:crypto';
import { ACCESS_CODE_TTL_DAYS, type GenerateAccessCodeResponse, type Investor, type InvestorPage, type PayloadOf, type ResponseOf } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { decodeCursor, pageOf, positionOfRow } from '@spark/persistence';
import { hashAccessCode, newAccessCode } from './access-code';
import type { InvestorRow, InvestorsRepository } from './investors.repository';

export function toInvestor(row: InvestorRow): Investor {
  return {
    id: row.id,
    email: row.email,
    interest: row.interest,
    createdAt: row.created_at.toISOString(),
    lastEmailSentAt: row.last_email_sent_at?.toISOString() ?? null,
    codeIssuedAt: row.code_issued_at?.toISOString() ?? null,
    codeExpiresAt: row.code_expires_at?.toISOString() ?? null,
    accessCount: row.access_count ?? 0,
    accessedAt: row.accessed_at?.toISOString() ?? null,
  };
}

export const invalidAccessCode = () => new DomainError('FORBIDDEN', 'Invalid access code. Please check your code and try again.');
// Only someone holding both the e-mail and its code learns that the code expired.
const expiredAccessCode = () => new DomainError('FORBIDDEN', 'This access code has expired. Please ask us for a new one.');
const noSuchInvestor = () => new DomainError('NOT_FOUND', 'No such investor.');

export class InvestorsService {
  constructor(
    private readonly investors: InvestorsRepository,
    private readonly clock: () => Date = () => new Date(),
    private readonly generateCode: () => string = newAccessCode,
  ) {}

  /** The public deck and early-access forms: a known e-mail is ignored, as docs/product.md §8 says of duplicates. */
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
    const page = pageOf(rows, request.limit, positionOfRow);
    return { items: page.items.map(toInvestor), nextCursor: page.nextCursor, total };
  }

  /**
   * The investor's first code, answered in clear this once: only its hash is kept. An investor with a
   * code gets 409 (reissue it), so two clicks cannot leave a code nobody saw.
   */
  async generateAccessCode({ investorId }: PayloadOf<'investor.generate-access-code'>): Promise<GenerateAccessCodeResponse> {
    if (!(await this.investors.findById(investorId))) throw noSuchInvestor();
    const accessCode = this.generateCode();
    const expiresAt = await this.investors.insertAccessCode(investorId, hashAccessCode(accessCode), ACCESS_CODE_TTL_DAYS);
    if (!expiresAt) throw new DomainError('CONFLICT', 'This investor already has an access code. Reissue it to get a new one.');
    return { investorId, accessCode, expiresAt: expiresAt.toISOString() };
  }

  /** A new code in place of the old one, which stops working at once. */
  async reissueAccessCode({ investorId }: PayloadOf<'investor.reissue-access-code'>): Promise<GenerateAccessCodeResponse> {
    if (!(await this.investors.findById(investorId))) throw noSuchInvestor();
    const accessCode = this.generateCode();
    const expiresAt = await this.investors.replaceAccessCode(investorId, hashAccessCode(accessCode), ACCESS_CODE_TTL_DAYS);
    return { investorId, accessCode, expiresAt: expiresAt.toISOString() };
  }

  /**
   * A code opens the deck only with its investor's e-mail and before it expires; with any other e-mail it
   * fails exactly as a wrong code does. A valid use is counted; the gateway then signs the deck's URL.
   */
  async redeemAccessCode({ email, accessCode }: PayloadOf<'investor.redeem-access-code'>): Promise<ResponseOf<'investor.redeem-access-code'>> {
    const codeHash = hashAccessCode(accessCode);
    const access = await this.investors.recordAccess(email, codeHash, this.clock());
    if (access) return { investorId: access.investor_id, accessCount: access.access_count };
    throw (await this.investors.holdsExpiredCode(email, codeHash)) ? expiredAccessCode() : invalidAccessCode();
  }
}
