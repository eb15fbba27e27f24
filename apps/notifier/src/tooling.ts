// What the system tests may use of the notifier: the erasure of a person's part of its ledger, and nothing else.
export { sentMailEraser } from './mail/sent-mail-erasure';
