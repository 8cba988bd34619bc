import {
  ERASED,
  isUuid,
  type CustomerAppointment,
  type CustomerLead,
  type CustomerQuote,
  type PersonalDataEraser,
  type PersonalDataReader,
  type PersonalDataUnitOfWork,
} from '@garage/domain';
import { sql, type Kysely } from 'kysely';
import { withErrorMapping } from '../errors.js';
import type { Database, Executor } from '../schema.js';
import { inTransaction } from '../transactions.js';

const iso = (date: Date): string => date.toISOString();
/** Keeps an absent value absent: only what the person gave is replaced. */
const erasedIfPresent = (column: string) => sql<string | null>`case when ${sql.ref(column)} is null then null else ${ERASED} end`;

const readerOn = (db: Executor): PersonalDataReader => ({
  async findByEmail(garageId, email) {
    if (!isUuid(garageId)) return { appointments: [], leads: [] };
    const [appointments, leads] = await Promise.all([
      db
        .selectFrom('appointments')
        .selectAll()
        .where('garage_id', '=', garageId)
        .where(sql<boolean>`lower(customer_email) = lower(${email})`)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('leads')
        .selectAll()
        .where('garage_id', '=', garageId)
        .where(sql<boolean>`lower(email) = lower(${email})`)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ]);
    return {
      appointments: appointments.map(
        (row): CustomerAppointment => ({
          id: row.id,
          status: row.status,
          startsAt: iso(row.starts_at),
          endsAt: iso(row.ends_at),
          customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
          vehicle: row.vehicle,
          notes: row.notes,
          cancellationReason: row.cancellation_reason,
          createdAt: iso(row.created_at),
        }),
      ),
      leads: leads.map(
        (row): CustomerLead => ({
          id: row.id,
          vehicleId: row.vehicle_id,
          name: row.name,
          email: row.email,
          phone: row.phone,
          message: row.message,
          consent: row.consent,
          createdAt: iso(row.created_at),
        }),
      ),
    };
  },

  async findQuotesNamed(garageId, names) {
    if (!isUuid(garageId) || names.length === 0) return [];
    const rows = await db
      .selectFrom('quotes')
      .selectAll()
      .where('garage_id', '=', garageId)
      .where(sql<boolean>`lower(trim(customer_name)) = any(${[...names]}::text[])`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(
      (row): CustomerQuote => ({
        id: row.id,
        number: row.number,
        status: row.status,
        customerName: row.customer_name,
        signerName: row.signer_name,
        comment: row.comment,
        refuseReason: row.refuse_reason,
        totalCents: Number(row.total_cents),
        currency: row.currency,
        createdAt: iso(row.created_at),
      }),
    );
  },
});

const count = (result: { numUpdatedRows: bigint }[]): number => result.reduce((sum, r) => sum + Number(r.numUpdatedRows), 0);

const eraserOn = (db: Executor): PersonalDataEraser => ({
  ...readerOn(db),

  async eraseAppointments(ids) {
    if (ids.length === 0) return 0;
    return count(
      await db
        .updateTable('appointments')
        .set({
          customer_name: ERASED,
          customer_email: erasedIfPresent('customer_email'),
          customer_phone: erasedIfPresent('customer_phone'),
          notes: erasedIfPresent('notes'),
          cancellation_reason: erasedIfPresent('cancellation_reason'),
        })
        .where('id', 'in', [...ids])
        .execute(),
    );
  },

  async eraseLeads(ids) {
    if (ids.length === 0) return 0;
    return count(
      await db
        .updateTable('leads')
        .set({ name: ERASED, email: erasedIfPresent('email'), phone: erasedIfPresent('phone'), message: erasedIfPresent('message') })
        .where('id', 'in', [...ids])
        .execute(),
    );
  },

  async eraseQuotes(ids) {
    if (ids.length === 0) return 0;
    return count(
      await db
        .updateTable('quotes')
        .set({
          customer_name: ERASED,
          signer_name: erasedIfPresent('signer_name'),
          comment: erasedIfPresent('comment'),
          refuse_reason: erasedIfPresent('refuse_reason'),
        })
        .where('id', 'in', [...ids])
        .execute(),
    );
  },

  async eventsAbout(garageId, subjectIds) {
    if (subjectIds.length === 0) return [];
    const rows = await db
      .selectFrom('webhook_events')
      .select(['id', 'payload'])
      .where('garage_id', '=', garageId)
      .where(sql<boolean>`payload->>'id' = any(${[...subjectIds]}::text[])`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: row.id, data: row.payload }));
  },

  async replaceEventData(eventId, data) {
    await db.updateTable('webhook_events').set({ payload: JSON.stringify(data) }).where('id', '=', eventId).execute();
  },

  async recordErasure({ garageId, at, counts }) {
    await db
      .insertInto('personal_data_erasures')
      .values({ garage_id: garageId, erased_at: at, ...counts })
      .execute();
  },
});

/** What a garage holds about a person, read from `db` (the primary: an export follows the latest writes). */
export const makePersonalDataReader = (db: Kysely<Database>): PersonalDataReader => withErrorMapping(readerOn(db));

/** Erasures in one transaction each (port `PersonalDataUnitOfWork`). */
export const makePersonalDataUnitOfWork = (db: Kysely<Database>): PersonalDataUnitOfWork => ({
  run: (work) => inTransaction(db, (trx) => work(withErrorMapping(eraserOn(trx)))),
});
