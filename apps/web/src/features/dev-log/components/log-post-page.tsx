export { LogPostPage as default, LogPostError as ErrorBoundary, loadLogPost as loader } from './log-pages';
