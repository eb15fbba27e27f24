import type {
  DeckDownloadRequest,
  DeckDownloadResponse,
  DonatePage,
  GenerateAccessCodeResponse,
  Investor,
  InvestorCampaign,
  InvestorPage,
  RegisterInvestorRequest,
  SendInvestorEmailRequest,
} from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const investorKeys = { all: ['investors'] as const };

export const investorsApi = {
  donatePage: () => apiRequest<DonatePage>('GET', '/investors/donate-page', undefined, { authenticate: false }),
  requestDeck: (body: RegisterInvestorRequest) => apiRequest<{ received: true }>('POST', '/investors/deck-requests', body, { authenticate: false }),
  earlyAccess: (body: RegisterInvestorRequest) => apiRequest<{ received: true }>('POST', '/investors/early-access', body, { authenticate: false }),
  downloadDeck: (body: DeckDownloadRequest) => apiRequest<Partial<DeckDownloadResponse>>('POST', '/investors/deck-download', body, { authenticate: false }),
  list: (cursor?: string) => apiRequest<InvestorPage>('GET', `/investors?${new URLSearchParams({ limit: '100', ...(cursor && { cursor }) })}`),
  create: (email: string) => apiRequest<Investor>('POST', '/investors', { email }),
  generateCode: (investorId: string) => apiRequest<GenerateAccessCodeResponse>('POST', `/investors/${investorId}/access-code`),
  reissueCode: (investorId: string) => apiRequest<GenerateAccessCodeResponse>('POST', `/investors/${investorId}/access-code/reissue`),
  sendEmail: (body: SendInvestorEmailRequest) => apiRequest<InvestorCampaign>('POST', '/investors/emails', body),
  campaign: (id: string) => apiRequest<InvestorCampaign>('GET', `/investors/emails/${id}`),
  uploadDeck: (file: 'full' | 'preview', upload: File) => {
    const form = new FormData();
    form.append('file', upload);
    return apiRequest<{ uploaded: string }>('PUT', `/investors/deck/${file}`, form);
  },
};

/** Sends, then follows the campaign until every delivery finished (or a minute passed). */
export async function sendCampaign(body: SendInvestorEmailRequest): Promise<InvestorCampaign> {
  let campaign = await investorsApi.sendEmail(body);
  for (let poll = 0; campaign.pending > 0 && poll < 60; poll++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    campaign = await investorsApi.campaign(campaign.id);
  }
  return campaign;
}
