/**
 * The one base of every error raised for a rule (a business rule, a format, a provider's
 * answer): `AppError` (an API error with its status) and each module's domain errors extend it.
 * Each module registers its codes and their HTTP statuses in a table (`defineErrors` in
 * platform/errors), and the exception filter answers any CodedError from those tables.
 *
 * `code` is a stable snake_case identifier meant for the API error envelope
 * (`{"error": code}`); `message` is for humans and may change; `details` carries the
 * offending values (never secrets such as a full card number).
 */
export abstract class CodedError<C extends string = string> extends Error {
  readonly code: C;
  readonly details?: Readonly<Record<string, unknown>>;

  /** `code` may be left undefined by a subclass that declares it as a field (`readonly code = 'x' as const`). */
  protected constructor(code: C, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    if (code !== undefined) this.code = code;
    if (details !== undefined) this.details = Object.freeze({ ...details });
  }
}
