// What tools outside the notifier may use of it: its migrations, for a test that migrates every schema as the owner
// before starting the apps as logins that may not (as the migration Job does).
export { notifierMigrations } from './migrations';
