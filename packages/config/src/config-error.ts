/** A configuration problem, worded for the operator who reads it on stderr. It never quotes a secret. */
export class ConfigError extends Error {
  readonly variable: string;

  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.variable = variable;
    this.name = 'ConfigError';
  }
}
