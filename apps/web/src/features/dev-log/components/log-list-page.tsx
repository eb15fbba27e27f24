export { LogListPage as default, LogListError as ErrorBoundary, loadLogList as loader } from './log-pages';
