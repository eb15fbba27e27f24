import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  getPostRequestSchema,
  listPostsRequestSchema,
  type PayloadOf,
  POST_MARKDOWN_MAX_LENGTH,
  publishPostRequestSchema,
  type UploadedLogImage,
  uploadedLogImageSchema,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { ServiceBus } from '@spark/messaging';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Public, Roles } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { JsonBodyLimit } from '../http/json-body-limit';
import { UploadRoute } from '../http/upload-slots';
import { ZodPipe } from '../http/zod-body.pipe';
import { cleanImage, readUploadedFile } from '../investors/uploaded-file';
import { LogImages } from './log-images';
import { Responds, RespondsWithout } from '../docs/responds.decorator';

const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
// A post's markdown at its longest with every character at its widest in UTF-8 (JSON leaves all but control
// characters as they are), and room for the list of its images.
const PUBLISH_BODY_MAX_BYTES = 3 * POST_MARKDOWN_MAX_LENGTH + 64 * 1024;

/** The Developer's Log: public reading, admin-only publishing. */
@Controller('api/log')
export class DevLogController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(LogImages) private readonly images: LogImages,
  ) {}

  @Responds('content.list-posts')
  @Public()
  @Get('posts')
  list(@Query(new ZodPipe(listPostsRequestSchema)) query: PayloadOf<'content.list-posts'>) {
    return this.bus.request('content.list-posts', query);
  }

  @Responds('content.get-post')
  @Public()
  @Get('posts/:slug')
  get(@Param(new ZodPipe(getPostRequestSchema)) params: PayloadOf<'content.get-post'>) {
    return this.bus.request('content.get-post', params);
  }

  /** A published post's image: only keys a post shows are served, through a short-lived signed URL. */
  @RespondsWithout('The image file')
  @Public()
  @Get('images/:owner/:file')
  async image(@Param('owner') owner: string, @Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const key = `${owner}/${file}`;
    const { published } = await this.bus.request('content.check-image', { key });
    if (!published) throw new DomainError('NOT_FOUND', 'No such image.');
    await reply.header('cache-control', 'public, max-age=300').redirect(await this.images.signedUrl(key), 302);
  }

  @Responds(uploadedLogImageSchema)
  @Roles('admin')
  @Post('images')
  @UploadRoute()
  @HttpCode(201)
  async upload(@Req() request: FastifyRequest, @CurrentUser() user: AuthenticatedUser): Promise<UploadedLogImage> {
    const { file, bytes } = await readUploadedFile(request, IMAGE_MAX_BYTES);
    const unsupported = () => new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Images must be png, jpg, jpeg, gif or webp.');
    if (!LogImages.safeName(file.filename)) throw unsupported();
    // Posts are public: the picture is stored re-encoded, without the location or camera details it came with.
    const image = await cleanImage(bytes);
    if (!image) throw unsupported();
    return this.images.store(user.id, file.filename, image.bytes, image.contentType);
  }

  @Responds('content.publish-post')
  @Post('posts')
  @JsonBodyLimit(PUBLISH_BODY_MAX_BYTES, 'admin')
  @HttpCode(201)
  @Audited('devlog.publish', { type: 'post', id: { answer: ['slug'] } })
  publish(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(publishPostRequestSchema)) body: Omit<PayloadOf<'content.publish-post'>, 'authorId'>) {
    return this.bus.request('content.publish-post', { ...body, authorId: user.id });
  }
}
