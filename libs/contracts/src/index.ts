export * from './common';
export * from './errors';
export * from './jobs';
export * from './leads';
export * from './patterns';
