import { sql, type Kysely } from 'kysely';

/**
 * Every table the contract implies. `updated_at` columns hold millisecond precision (the precision of a JS Date),
 * so that keyset cursors built from them compare exactly.
 */
const nowMs = sql`date_trunc('milliseconds', now())`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('garages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('slot_minutes', 'integer', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('weekly_hours', 'jsonb', (c) => c.notNull())
    .addColumn('min_notice_minutes', 'integer', (c) => c.notNull())
    .addColumn('horizon_days', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .execute();

  await db.schema
    .createTable('garage_closures')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('garage_id', 'uuid', (c) => c.notNull().references('garages.id').onDelete('cascade'))
    .addColumn('from_date', 'date', (c) => c.notNull())
    .addColumn('to_date', 'date', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addCheckConstraint('garage_closures_range', sql`from_date <= to_date`)
    .execute();
  await db.schema.createIndex('garage_closures_garage_idx').on('garage_closures').columns(['garage_id', 'from_date']).execute();

  await db.schema
    .createTable('integrations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('garage_id', 'uuid', (c) => c.notNull().references('garages.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('sync_appointments', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('sync_catalog', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('sync_stock', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret_key_id', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_nonce', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_tag', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('key_rotated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .execute();
  await db.schema.createIndex('integrations_garage_idx').on('integrations').column('garage_id').execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('garage_id', 'uuid', (c) => c.notNull().references('garages.id').onDelete('cascade'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text')
    .addColumn('brand', 'text')
    .addColumn('price_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('vat_rate', sql`numeric(5,2)`, (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addUniqueConstraint('products_garage_sku_key', ['garage_id', 'sku'])
    // Target of composite foreign keys that must stay inside one garage (appointment products).
    .addUniqueConstraint('products_garage_id_key', ['garage_id', 'id'])
    .execute();
  // Keyset pagination: one index per list shape (all products with updatedSince; active ones without).
  await db.schema.createIndex('products_sync_idx').on('products').columns(['garage_id', 'updated_at', 'id']).execute();
  await db.schema
    .createIndex('products_active_sync_idx')
    .on('products')
    .columns(['garage_id', 'updated_at', 'id'])
    .where(sql.ref('active'), '=', true)
    .execute();

  await db.schema
    .createTable('stock')
    .addColumn('product_id', 'uuid', (c) => c.primaryKey())
    .addColumn('garage_id', 'uuid', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    // Composite so that a stock row always belongs to its product's garage (the stock list filters on garage_id).
    .addForeignKeyConstraint('stock_product_fkey', ['garage_id', 'product_id'], 'products', ['garage_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('stock_sync_idx').on('stock').columns(['garage_id', 'updated_at', 'product_id']).execute();

  await db.schema
    .createTable('vehicles')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('garage_id', 'uuid', (c) => c.notNull().references('garages.id').onDelete('cascade'))
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('make', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('mileage_km', 'integer', (c) => c.notNull())
    .addColumn('fuel', 'text', (c) => c.notNull().check(sql`fuel in ('petrol','diesel','hybrid','electric','lpg','other')`))
    .addColumn('gearbox', 'text', (c) => c.notNull().check(sql`gearbox in ('manual','automatic')`))
    .addColumn('price_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('description', 'text')
    .addColumn('photos', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('available').check(sql`status in ('available','reserved','sold')`))
    .addColumn('published_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addUniqueConstraint('vehicles_garage_reference_key', ['garage_id', 'reference'])
    // Target of the leads foreign key: a lead is stored against its vehicle's own garage.
    .addUniqueConstraint('vehicles_garage_id_key', ['garage_id', 'id'])
    .execute();
  await db.schema
    .createIndex('vehicles_fleet_idx')
    .on('vehicles')
    .expression(sql`garage_id, published_at desc, id desc`)
    .where(sql.ref('status'), '<>', 'sold')
    .execute();

  await db.schema
    .createTable('appointments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('garage_id', 'uuid', (c) => c.notNull().references('garages.id').onDelete('cascade'))
    .addColumn('integration_id', 'uuid', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('customer_email', 'text')
    .addColumn('customer_phone', 'text')
    .addColumn('vehicle', 'jsonb')
    .addColumn('notes', 'text')
    .addColumn('external_ref', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addUniqueConstraint('appointments_integration_external_ref_key', ['integration_id', 'external_ref'])
    .execute();
  await db.schema.createIndex('appointments_garage_time_idx').on('appointments').columns(['garage_id', 'starts_at']).execute();

  await db.schema
    .createTable('appointment_products')
    .addColumn('appointment_id', 'uuid', (c) => c.notNull().references('appointments.id').onDelete('cascade'))
    .addColumn('garage_id', 'uuid', (c) => c.notNull())
    .addColumn('product_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('appointment_products_pkey', ['appointment_id', 'product_id'])
    .addForeignKeyConstraint('appointment_products_product_fkey', ['garage_id', 'product_id'], 'products', ['garage_id', 'id'])
    .execute();

  await db.schema
    .createTable('quotes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('garage_id', 'uuid', (c) => c.notNull().references('garages.id').onDelete('cascade'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending','accepted','refused')`))
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('lines', 'jsonb', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('decided_at', 'timestamptz')
    .addColumn('signer_name', 'text')
    .addColumn('comment', 'text')
    .addColumn('refuse_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addUniqueConstraint('quotes_garage_number_key', ['garage_id', 'number'])
    .execute();

  await db.schema
    .createTable('leads')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('garage_id', 'uuid', (c) => c.notNull())
    .addColumn('vehicle_id', 'uuid', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('message', 'text')
    .addColumn('consent', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addForeignKeyConstraint('leads_vehicle_fkey', ['garage_id', 'vehicle_id'], 'vehicles', ['garage_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('leads_garage_idx').on('leads').columns(['garage_id', 'created_at']).execute();

  // Idempotency-Key records: scope is the integration (appointments) or the request path (public POSTs).
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('in_progress','completed')`))
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('locked_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry_idx').on('idempotency_keys').column('expires_at').execute();

  // Transactional outbox: one event per change, one delivery per target integration, one row per attempt.
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('garage_id', 'uuid', (c) => c.notNull().references('garages.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('integration_id', 'uuid', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending','succeeded','failed','gone')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(nowMs))
    .addUniqueConstraint('webhook_deliveries_event_integration_key', ['event_id', 'integration_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('delivery_id', 'uuid', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'attempted_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'webhook_attempts', 'webhook_deliveries', 'webhook_events', 'idempotency_keys', 'leads', 'quotes',
    'appointment_products', 'appointments', 'vehicles', 'stock', 'products', 'integrations', 'garage_closures', 'garages',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
