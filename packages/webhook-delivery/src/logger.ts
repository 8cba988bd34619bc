/** The part of a pino logger (or Fastify's `app.log`) that delivery uses. */
export interface DeliveryLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
