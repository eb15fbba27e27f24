import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { NotesHandler } from './notes.handler';
import { NotesRepository } from './notes.repository';

@Module({})
export class NotesModule {
  static register({ dataSource }: ServiceInfrastructure): DynamicModule {
    return {
      module: NotesModule,
      controllers: [NotesHandler],
      providers: [{ provide: NotesRepository, useValue: new NotesRepository(dataSource) }],
    };
  }
}
