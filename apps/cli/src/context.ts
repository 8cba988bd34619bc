import type { AdminUseCases } from '@garage/composition';

/** Every command takes `--json`. */
export interface JsonOption {
  json?: boolean;
}

/** What a command module needs from the outside world; built once in the composition root. */
export interface CliContext {
  /** Opens the database, migrates it to the latest version, runs `work` with the admin use-cases, closes. */
  withAdmin<T>(work: (admin: AdminUseCases) => Promise<T>): Promise<T>;
  /** The base URL portal links are printed with (PUBLIC_URL, default http://localhost:PORT). */
  publicUrl(): Promise<string>;
  /** Applies pending migrations and returns the names applied now. */
  migrate(): Promise<string[]>;
  /** Re-encrypts every webhook secret under the active key; returns how many were re-encrypted. */
  reencryptWebhookSecrets(): Promise<{ reencrypted: number }>;
  /**
   * With `--json`, exactly one JSON document on stdout (what scripts parse); otherwise the short human-readable
   * form, computed only when needed.
   */
  print(options: JsonOption, value: unknown, human: () => string): void;
}
