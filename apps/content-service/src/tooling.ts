// What the benchmarks may use of this service: how it excerpts a Developer's Log post, and nothing else.
export { excerptOf } from './posts/post-text';
