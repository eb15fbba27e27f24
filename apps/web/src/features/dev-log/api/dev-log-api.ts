import type { LogPost, LogPostPage, PublishPostRequest, PublishPostResponse, UploadedLogImage } from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const devLogApi = {
  list: () => apiRequest<LogPostPage>('GET', '/log/posts?limit=50', undefined, { authenticate: false }),
  post: (slug: string) => apiRequest<LogPost>('GET', `/log/posts/${encodeURIComponent(slug)}`, undefined, { authenticate: false }),
  uploadImage: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return apiRequest<UploadedLogImage>('POST', '/log/images', form);
  },
  publish: (body: PublishPostRequest) => apiRequest<PublishPostResponse>('POST', '/log/posts', body),
};
