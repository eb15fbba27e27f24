export { LogPostPage as default } from './log-pages';
