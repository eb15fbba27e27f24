export { LogListPage as default } from './log-pages';
