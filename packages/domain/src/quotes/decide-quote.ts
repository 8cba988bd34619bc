import { publicQuoteStatus, type Quote } from './quote.js';
import { QuoteAlreadyProcessedError, QuoteExpiredError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import { transactional, type TransactionalUseCase } from '../kernel/transactional-use-case.js';
import type { UnitOfWork, Work } from '../kernel/unit-of-work.port.js';
import { sha256Hex } from '../integrations/api-key.js';
import { Checker } from '../kernel/validation.js';
import { findByToken, publicQuote, type PublicQuote } from './public-quote.js';

/** The limits of a decision's optional fields, exported so that the HTTP schema states the same numbers. */
export const QUOTE_DECISION_LIMITS = { signerName: 120, comment: 2000, reason: 2000 } as const;

export type QuoteDecisionCommand =
  | { decision: 'accept'; signerName?: string | null; comment?: string | null }
  | { decision: 'refuse'; reason?: string | null };

/** A decision on the quote whose public token is `token`. */
export type DecideQuoteCommand = QuoteDecisionCommand & { token: string };

const refusal = (quote: Quote, now: Date) =>
  publicQuoteStatus(quote, now) === 'expired' ? new QuoteExpiredError() : new QuoteAlreadyProcessedError();

/**
 * Accepting or refusing is exactly-once: the repository's conditional update lets one concurrent caller win; every
 * other gets `QUOTE_ALREADY_PROCESSED` (or `QUOTE_EXPIRED` once the quote has expired). The webhook event is written
 * in the same transaction as the decision.
 */
export const makeDecideQuote = ({ uow, clock }: { uow: UnitOfWork; clock: Clock }): TransactionalUseCase<DecideQuoteCommand, PublicQuote> =>
  transactional(uow, decideQuoteWork(clock));

const decideQuoteWork =
  (clock: Clock) =>
  (cmd: DecideQuoteCommand): Work<PublicQuote> => {
    const { token } = cmd;
    const check = new Checker();
    if (cmd.decision === 'accept') {
      check.string('/signerName', cmd.signerName, { optional: true, max: QUOTE_DECISION_LIMITS.signerName });
      check.string('/comment', cmd.comment, { optional: true, min: 0, max: QUOTE_DECISION_LIMITS.comment });
    } else {
      check.string('/reason', cmd.reason, { optional: true, min: 0, max: QUOTE_DECISION_LIMITS.reason });
    }
    check.throwIfAny('Invalid decision');
    const status = cmd.decision === 'accept' ? 'accepted' : 'refused';
    return async (tx) => {
      const quote = await findByToken(tx.quotes, token);
      const now = clock.now();
      if (publicQuoteStatus(quote, now) !== 'pending') throw refusal(quote, now);
      const won = await tx.quotes.decide(quote.id, {
        status,
        at: now,
        signerName: cmd.decision === 'accept' ? (cmd.signerName ?? null) : null,
        comment: cmd.decision === 'accept' ? (cmd.comment ?? null) : null,
        reason: cmd.decision === 'refuse' ? (cmd.reason ?? null) : null,
      });
      if (!won) {
        const latest = (await tx.quotes.findByTokenHash(sha256Hex(token))) ?? quote;
        throw refusal(latest, now);
      }
      await tx.outbox.enqueue({
        garageId: quote.garageId,
        type: status === 'accepted' ? 'quote.accepted' : 'quote.refused',
        data: {
          id: quote.id,
          number: quote.number,
          status,
          customerName: quote.customerName,
          totalCents: quote.totalCents,
          currency: quote.currency,
          decidedAt: now.toISOString(),
          ...(cmd.decision === 'accept'
            ? { signerName: cmd.signerName ?? null, comment: cmd.comment ?? null }
            : { reason: cmd.reason ?? null }),
        },
      });
      return publicQuote({ ...quote, status, decidedAt: now }, now);
    };
  };
