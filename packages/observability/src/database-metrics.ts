import { Counter, type Registry } from 'prom-client';

/** What the metrics need of a database handle (`@garage/postgres`'s `DatabaseHandle`). */
export interface ConnectionErrorsSource {
  onConnectionError(listener: (error: Error, source: string) => void): void;
}

export interface WarningLogger {
  warn(details: object, message: string): void;
}

/** Where `@garage/postgres` reports a lost connection from (its `ConnectionErrorSource`). */
const SOURCES = ['idle', 'in_use', 'listen'] as const;

export interface DatabaseConnectionMetrics {
  /** Logs and counts every connection error of `handle`, labelled with `database` (`primary`, `replica`). */
  watch(handle: ConnectionErrorsSource, database: string): void;
}

/**
 * `db_connection_errors_total{database, source}`: database connections lost, by the database and by where the
 * connection was (`idle` in the pool, `in_use` by a query or transaction, `listen` for notifications). Each is also
 * logged as a warning with the error. Alerted on by GaragePostgresConnectionErrors (deploy/prometheus/alerts.yaml).
 */
export const registerDatabaseConnectionMetrics = (registry: Registry, logger: WarningLogger): DatabaseConnectionMetrics => {
  const errors = new Counter({
    name: 'db_connection_errors_total',
    help: 'Database connections lost, by database (primary, replica) and where the connection was (idle, in_use, listen).',
    labelNames: ['database', 'source'] as const,
    registers: [registry],
  });
  return {
    watch(handle, database) {
      // Every series exists from the start, at 0: an alert's `increase` sees the first loss, and the name is exported.
      for (const source of SOURCES) errors.inc({ database, source }, 0);
      handle.onConnectionError((err, source) => {
        logger.warn({ err, database, source }, 'database connection lost');
        errors.inc({ database, source });
      });
    },
  };
};
