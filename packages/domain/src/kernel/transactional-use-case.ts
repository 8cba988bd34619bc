import type { UnitOfWork, Work } from './unit-of-work.port.js';

/**
 * A use case that changes state, in the two ways a caller needs it. Called, it makes its change atomically on its
 * own: in a transaction it opens (`transactional`), or, where the change is one atomic write (a booking,
 * `BookingWriter`), with no transaction at all. Its `work(cmd)` is the same change for a transaction the caller
 * opens, so that the caller can commit something with it (the API's Idempotency-Key record,
 * docs/contributors/architecture.md, "Transactions"). `work(cmd)` checks the command before it returns, so a refused
 * command opens no transaction.
 */
export type TransactionalUseCase<Command, Result> = ((cmd: Command) => Promise<Result>) & {
  readonly work: (cmd: Command) => Work<Result>;
};

export const transactional = <Command, Result>(
  uow: UnitOfWork,
  work: (cmd: Command) => Work<Result>,
): TransactionalUseCase<Command, Result> => Object.assign(async (cmd: Command) => uow.run(work(cmd)), { work });
