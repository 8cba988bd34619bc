export { startMetricsServer, type MetricsServer } from './metrics-server.js';
export { startHealthServer, type HealthReport, type HealthServer } from './health-server.js';
export { registerHealthMetrics, type HealthMetrics } from './health-metrics.js';
export { LOG_REDACTION } from './log-redaction.js';
export { registerDatabaseConnectionMetrics, type DatabaseConnectionMetrics } from './database-metrics.js';
export { registerRetentionMetrics, type RetainedTableAge } from './retention-metrics.js';
