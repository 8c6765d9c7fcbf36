/**
 * Base class for errors raised by a broken business or format rule.
 *
 * `code` is a stable snake_case identifier meant for the API error envelope
 * (`{"error": code}`); `message` is for humans and may change; `details` carries the
 * offending values (never secrets such as a full card number).
 */
export abstract class CodedError<C extends string = string> extends Error {
  readonly code: C;
  readonly details?: Readonly<Record<string, unknown>>;

  protected constructor(code: C, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    if (details !== undefined) this.details = Object.freeze({ ...details });
  }
}
