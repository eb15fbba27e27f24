// What the operator scripts may use of this service: its users table (scripts/create-user.ts).
export { UsersRepository } from './users/users.repository';
